type SelectBoxProps = {
  name: string;
  checked: boolean;
  onChange: () => void;
  /** Extra classes, e.g. a z-index to stay above what floats over the grid. */
  className?: string;
};

/** The labelled checkbox in a tile's corner that selects the picture. */
export function SelectBox({ name, checked, onChange, className = '' }: SelectBoxProps) {
  return (
    <label className={`absolute top-2 left-2 flex size-8 cursor-pointer items-center justify-center rounded-md bg-white/90 shadow ${className}`}>
      <input type="checkbox" checked={checked} onChange={onChange} className="size-4 accent-indigo-600" />
      <span className="sr-only">Select {name}</span>
    </label>
  );
}
