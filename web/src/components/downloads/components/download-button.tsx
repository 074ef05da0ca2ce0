import { MAX_ZIP_IMAGES } from '@photo/contract';
import { useState } from 'react';
import { Button, type ButtonVariant } from '@/components/ui/button';
import { serverMessage } from '@/lib/api-client';
import { downloadOriginal, downloadZip } from '../api/start-download';

type Props = { variant?: ButtonVariant; className?: string } & (
  | { kind: 'original'; imageId: string }
  | { kind: 'zip'; imageIds: readonly string[] }
);

/**
 * "Download original" for one image, or "Download as zip" for a selection. Says why when it
 * cannot (nothing selected, too many, or the server's refusal).
 */
export function DownloadButton(props: Props) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const label = props.kind === 'original' ? 'Download original' : 'Download as zip';

  const start = async () => {
    setProblem('');
    if (props.kind === 'zip' && props.imageIds.length === 0) return setProblem('Please select at least one image.');
    if (props.kind === 'zip' && props.imageIds.length > MAX_ZIP_IMAGES) {
      return setProblem(`A zip holds at most ${MAX_ZIP_IMAGES.toLocaleString('en')} images.`);
    }
    setBusy(true);
    try {
      await (props.kind === 'original' ? downloadOriginal(props.imageId) : downloadZip(props.imageIds));
    } catch (error) {
      setProblem(serverMessage(error) ?? 'The download could not be started. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant={props.variant ?? 'secondary'} className={props.className} onClick={() => void start()} disabled={busy} aria-busy={busy}>
        {label}
      </Button>
      {problem ? (
        <span role="alert" className="self-center text-sm text-red-700">
          {problem}
        </span>
      ) : null}
    </>
  );
}
