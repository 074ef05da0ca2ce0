import { useRef, useState, type CSSProperties } from 'react';
import { useNearViewport } from '@/hooks/use-near-viewport';
import { placeholderDataUrl } from '@/lib/placeholder';
import { ImageIcon } from './icons';

/**
 * How the picture waits before loading:
 * - `native`: the browser's own `loading="lazy"` (virtualized grids, where rows only exist near the viewport);
 * - `near`: spec §9 for the profile and shared grids: once the box has been within 400px of the
 *   viewport for 100 ms;
 * - `eager`: at once (the image detail).
 */
export type ThumbnailLazy = 'native' | 'near' | 'eager';

/** Spec §9: lazy threshold 400 and delay 100 ms on the profile and shared grids. */
export const NEAR_MARGIN_PX = 400;
export const NEAR_DELAY_MS = 100;

export type ThumbnailProps = {
  src: string | null;
  alt: string;
  /** Base64 ThumbHash of the upright image, shown blurred until the picture arrives. */
  placeholder?: string | null;
  /** Upright pixel size: the box keeps this aspect ratio, so nothing moves when the picture loads. */
  width?: number | null;
  height?: number | null;
  /** A smaller picture the browser most likely has already (the grid thumbnail), shown meanwhile. */
  previewSrc?: string | null;
  lazy?: ThumbnailLazy;
  className?: string;
};

export function aspectRatioOf(width?: number | null, height?: number | null): number {
  return width && height && width > 0 && height > 0 ? width / height : 1;
}

/**
 * One picture in a box of its own aspect ratio: the ThumbHash placeholder (grey without one) as
 * background, and the picture fading in from blurred to sharp once it has loaded. A picture that
 * fails to load only logs a warning (spec §2 Profile); the placeholder stays.
 */
export function Thumbnail({ src, alt, placeholder, width, height, previewSrc, lazy = 'native', className = '' }: ThumbnailProps) {
  const boxRef = useRef<HTMLSpanElement>(null);
  const near = useNearViewport(boxRef, { marginPx: NEAR_MARGIN_PX, delayMs: NEAR_DELAY_MS, enabled: lazy === 'near' });
  // Remembering which src loaded (not a flag) resets the fade when the box shows another picture.
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  // A preview that fails (e.g. a revoked image's URL now answers 404) is hidden, never a broken icon.
  const [failedPreview, setFailedPreview] = useState<string | null>(null);
  const blur = placeholderDataUrl(placeholder);
  const style: CSSProperties = {
    aspectRatio: width && height && width > 0 && height > 0 ? `${width} / ${height}` : '1 / 1',
    backgroundImage: blur ? `url("${blur}")` : undefined,
    backgroundSize: 'cover',
    backgroundPosition: 'center',
  };

  if (!src) {
    return (
      <span ref={boxRef} role="img" aria-label={alt} style={style} className={`relative flex items-center justify-center overflow-hidden bg-slate-200 text-slate-400 ${className}`}>
        {blur ? null : <ImageIcon className="size-10" />}
      </span>
    );
  }

  const loaded = loadedSrc === src;
  return (
    <span ref={boxRef} style={style} className={`relative block overflow-hidden bg-slate-200 ${className}`}>
      {previewSrc && previewSrc !== src && previewSrc !== failedPreview && !loaded ? (
        <img
          src={previewSrc}
          alt=""
          aria-hidden="true"
          decoding="async"
          onError={() => setFailedPreview(previewSrc)}
          className="absolute inset-0 size-full object-cover"
        />
      ) : null}
      {near ? (
        <img
          src={src}
          alt={alt}
          loading={lazy === 'eager' ? 'eager' : 'lazy'}
          decoding="async"
          data-loaded={loaded}
          onLoad={() => setLoadedSrc(src)}
          onError={() => console.warn(`Image failed to load: ${alt}`)}
          className={`absolute inset-0 size-full object-cover transition-[opacity,filter] duration-500 ease-out motion-reduce:transition-none ${
            loaded ? 'opacity-100 blur-0' : 'opacity-0 blur-md'
          }`}
        />
      ) : (
        <span role="img" aria-label={alt} className="absolute inset-0" />
      )}
    </span>
  );
}
