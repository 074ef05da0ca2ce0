import { useId, useState } from 'react';
import { Button, LinkButton } from '@/components/ui/button';
import { FilterIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { DownloadButton } from '@/components/downloads';

type ActionBarProps = {
  selectedCount: number;
  selectedIds: readonly string[];
  imageCount: number;
  allSelected: boolean;
  tagsOpen: boolean;
  tagPanelId: string;
  admin: boolean;
  onRandomize: () => void;
  onToggleTags: () => void;
  onAddTags: () => void;
  onDelete: () => void;
  onReset: () => void;
  onSelectiveAccess: () => void;
  onToggleSelectAll: () => void;
};

/**
 * Spec §2 Gallery actions; on a phone they sit behind the Filters toggle. The actions on a selection
 * always open their dialog, which says "Please select at least one image." when nothing is selected
 * (spec §5), so no button is a silent dead end.
 */
export function ActionBar(props: ActionBarProps) {
  const [open, setOpen] = useState(false);
  const barId = useId();

  return (
    <div className="mb-4">
      <Button variant="secondary" className="md:hidden" aria-expanded={open} aria-controls={barId} onClick={() => setOpen(!open)}>
        <FilterIcon className="size-4" />
        Filters
      </Button>
      <div
        id={barId}
        role="toolbar"
        aria-label="Gallery actions"
        className={`${open ? 'flex' : 'hidden'} mt-3 flex-wrap gap-2 md:mt-0 md:flex`}
      >
        <Button variant="secondary" onClick={props.onRandomize} disabled={props.imageCount < 2}>
          Randomize
        </Button>
        <Button variant="secondary" aria-expanded={props.tagsOpen} aria-controls={props.tagPanelId} onClick={props.onToggleTags}>
          Show All Tags
        </Button>
        <Button variant="secondary" onClick={props.onAddTags}>
          Add Tags
        </Button>
        <LinkButton to={paths.sharedMedia.getHref()}>Shared Media</LinkButton>
        <Button variant="danger" onClick={props.onDelete}>
          Delete
        </Button>
        <Button variant="secondary" onClick={props.onReset}>
          Reset Filter
        </Button>
        {props.admin ? <LinkButton to={paths.allAccess.getHref()}>All Access</LinkButton> : null}
        <Button variant="secondary" onClick={props.onSelectiveAccess}>
          Selective Access
        </Button>
        <DownloadButton kind="zip" imageIds={props.selectedIds} />
        <Button variant="ghost" onClick={props.onToggleSelectAll} disabled={props.imageCount === 0}>
          {props.allSelected ? 'Deselect All' : 'Select All'}
        </Button>
        <span aria-live="polite" className="self-center text-sm text-slate-600">
          {props.selectedCount > 0 ? `${props.selectedCount} selected` : ''}
        </span>
      </div>
    </div>
  );
}
