import type { Image } from '@photo/contract';
import { buttonClasses } from '@/components/ui/button';
import { linkOriginalUrl, linkZipUrl, useLinkDownloads } from '../api/link-downloads';

/**
 * The public share-all page's downloads: everything as a zip, or one photo. Shown only while the
 * link's owner allows downloads; the server refuses them otherwise, and once the link is closed.
 */
export function LinkDownloads({ link, images }: { link: string; images: readonly Pick<Image, '_id' | 'FileName'>[] }) {
  const allowed = useLinkDownloads(link);
  if (!allowed.data?.allowDownloads || images.length === 0) return null;
  return (
    <div className="mb-4 flex flex-wrap items-start gap-3">
      <a className={buttonClasses('secondary')} href={linkZipUrl(link)} download>
        Download all
      </a>
      <details className="text-sm text-slate-700">
        <summary className="cursor-pointer py-2">Download one photo</summary>
        <ul className="mt-1 max-h-64 overflow-y-auto">
          {images.map((image) => (
            <li key={image._id}>
              <a className="text-indigo-700 underline" href={linkOriginalUrl(link, image._id)} download={image.FileName}>
                {image.FileName}
              </a>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
