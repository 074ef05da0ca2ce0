import { ImageGrid, type GridItem } from './image-grid';

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
      renderExtra={(item) => (
        <label className="absolute top-2 left-2 flex size-8 cursor-pointer items-center justify-center rounded-md bg-white/90 shadow">
          <input
            type="checkbox"
            checked={selected.has(item.id)}
            onChange={() => onToggle(item.id)}
            className="size-4 accent-indigo-600"
          />
          <span className="sr-only">Select {item.name}</span>
        </label>
      )}
    />
  );
}
