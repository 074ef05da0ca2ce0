import { useEffect, useEffectEvent, useState } from 'react';

/** Spec §5: images only. HEIC/HEIF are named too: some browsers give them no image/* type. */
export const IMAGE_ACCEPT = 'image/*,.heic,.heif';

/** What a folder or a drop holds besides photos (sidecars, notes, .DS_Store) is left out. */
export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/') || /\.(heic|heif)$/i.test(file.name);
}

function filesOfEntry(entry: FileSystemEntry): Promise<File[]> {
  if (entry.isFile) return new Promise((resolve, reject) => (entry as FileSystemFileEntry).file((file) => resolve([file]), reject));
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // A directory answers in batches until an empty one.
  const readAll = (found: File[]): Promise<File[]> =>
    new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject)).then(async (entries) =>
      entries.length === 0 ? found : readAll([...found, ...(await Promise.all(entries.map(filesOfEntry))).flat()]),
    );
  return readAll([]);
}

/** The files of a drop, folders walked recursively. Entries must be taken while the drop event runs. */
function filesOfDrop(transfer: DataTransfer): Promise<File[]> {
  const entries = Array.from(transfer.items, (item) => item.webkitGetAsEntry?.()).filter((entry): entry is FileSystemEntry => Boolean(entry));
  if (entries.length === 0) return Promise.resolve(Array.from(transfer.files));
  return Promise.all(entries.map(filesOfEntry)).then((lists) => lists.flat());
}

/** Photos (and folders of them) dropped anywhere on the page go to `onFiles`; `dragging` while over it. */
export function useFileDrop(onFiles: (files: File[]) => void, enabled: boolean): boolean {
  const [dragging, setDragging] = useState(false);
  const deliver = useEffectEvent(onFiles);
  useEffect(() => {
    if (!enabled) return;
    const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault(); // else the browser opens the file
      setDragging(true);
    };
    const leave = (event: DragEvent) => {
      if (event.relatedTarget === null) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event) || !event.dataTransfer) return;
      event.preventDefault();
      setDragging(false);
      filesOfDrop(event.dataTransfer).then(deliver, (error: unknown) => console.error('Reading the dropped files failed:', error));
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
      setDragging(false);
    };
  }, [enabled]);
  return dragging;
}
