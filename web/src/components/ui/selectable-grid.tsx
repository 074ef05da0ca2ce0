import { ImageGrid, type GridItem } from './image-grid';
import { SelectBox } from './select-box';

type SelectableGridProps = {
  items: GridItem[];
  label: string;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  showTags?: boolean;
  linkState?: unknown;
};

/** An image grid with a labelled checkbox on every tile. */
export function SelectableGrid({ items, label, selected, onToggle, showTags, linkState }: SelectableGridProps) {
  return (
    <ImageGrid
      items={items}
      label={label}
      showTags={showTags}
      linkState={linkState}
      renderExtra={(item) => <SelectBox name={item.name} checked={selected.has(item.id)} onChange={() => onToggle(item.id)} />}
    />
  );
}
