import { describe, expect, it } from 'vitest';
import { ImageUrls, type Variant } from './image-urls.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hkdf';
const EXP = 1_800_000_000;
const NOW = EXP - 3600;

function signatureOf(url: string): string {
  return new URL(url, 'http://x').searchParams.get('sig') ?? '';
}

describe('ImageUrls', () => {
  const urls = new ImageUrls(SECRET);

  it('signs a page of URLs in one call, each the same as signed alone, and each verifies', () => {
    const wanted = [
      { imageId: 1, variant: 'display' as const },
      { imageId: 1, variant: 'thumb' as const },
      { imageId: 2 ** 40 + 7, variant: 'thumb' as const },
      { imageId: 42, variant: 'trash' as const },
    ];
    const batch = urls.urls(wanted, 'u7', EXP);
    expect(batch).toEqual(wanted.map(({ imageId, variant }) => urls.url(imageId, variant, 'u7', EXP)));
    batch.forEach((url, index) => {
      const { imageId, variant } = wanted[index] as { imageId: number; variant: Variant };
      expect(url).toMatch(new RegExp(`^/media/i/${imageId}/${variant}\\?v=u7&exp=${EXP}&sig=[A-Za-z0-9_-]{22}$`));
      expect(urls.verify(imageId, variant, 'u7', EXP, signatureOf(url), NOW)).toBe(true);
    });
    expect(new Set(batch.map(signatureOf)).size).toBe(batch.length);
  });

  it('refuses the signature for any other image, variant, viewer or expiry, an expired URL and another server', () => {
    const sig = signatureOf(urls.url(5, 'thumb', 'u7', EXP));
    expect(urls.verify(6, 'thumb', 'u7', EXP, sig, NOW)).toBe(false);
    expect(urls.verify(5 + 2 ** 32, 'thumb', 'u7', EXP, sig, NOW)).toBe(false);
    expect(urls.verify(5, 'display', 'u7', EXP, sig, NOW)).toBe(false);
    expect(urls.verify(5, 'trash', 'u7', EXP, sig, NOW)).toBe(false);
    expect(urls.verify(5, 'thumb', 'u8', EXP, sig, NOW)).toBe(false);
    expect(urls.verify(5, 'thumb', 'l3.0123456789abcdef', EXP, sig, NOW)).toBe(false);
    expect(urls.verify(5, 'thumb', 'u7', EXP + 21_600, sig, NOW)).toBe(false);
    expect(urls.verify(5, 'thumb', 'u7', EXP, sig, EXP + 1)).toBe(false);
    expect(new ImageUrls('another-secret-that-is-long-enough-too').verify(5, 'thumb', 'u7', EXP, sig, NOW)).toBe(false);
    expect(urls.verify(5, 'thumb', 'u7', EXP, sig, NOW)).toBe(true);
  });

  it('takes only the one spelling of a signature', () => {
    const sig = signatureOf(urls.url(5, 'thumb', 'u7', EXP));
    expect(urls.verify(5, 'thumb', 'u7', EXP, `${sig}=`, NOW)).toBe(false);
    expect(urls.verify(5, 'thumb', 'u7', EXP, `${sig.slice(0, 10)}.${sig.slice(10)}`, NOW)).toBe(false);
    expect(urls.verify(5, 'thumb', 'u7', EXP, sig.slice(0, 21), NOW)).toBe(false);
    expect(urls.verify(5, 'thumb', 'u7', EXP, '', NOW)).toBe(false);
    expect(urls.verify(5, 'thumb', 'u7', Number.NaN, sig, NOW)).toBe(false);
    expect(urls.verify(-5, 'thumb', 'u7', EXP, sig, NOW)).toBe(false);
  });
});

describe('ImageUrls.urlsJsonPieces', () => {
  const urls = new ImageUrls(SECRET);
  const asText = (display: string | null, thumb: string | null) =>
    [display === null ? 'null' : `"${display}"`, ',"thumbnailURL":', thumb === null ? 'null' : `"${thumb}"`].join('');

  it('writes each image’s two URLs as the JSON the signed URLs make, nulls for files not made yet', () => {
    let seed = 3;
    const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    const images = Array.from({ length: 120 }, (_, i) => ({
      imageId: i === 0 ? 2 ** 40 + 7 : i === 1 ? 0 : 1 + next(10_000_000),
      display: i % 17 !== 5,
      thumb: i % 13 !== 4,
    }));
    for (const tag of ['u7', 'l3.0123456789abcdef']) {
      const pieces = urls.urlsJsonPieces(images, tag, EXP);
      expect(pieces.map((piece) => piece.toString('latin1'))).toEqual(
        images.map(({ imageId, display, thumb }) =>
          asText(display ? urls.url(imageId, 'display', tag, EXP) : null, thumb ? urls.url(imageId, 'thumb', tag, EXP) : null),
        ),
      );
    }
    expect(urls.urlsJsonPieces([], 'u7', EXP)).toEqual([]);
    expect(urls.urlsJsonPieces([{ imageId: 9, display: false, thumb: false }], 'u7', EXP).map(String)).toEqual(['null,"thumbnailURL":null']);
  });
});
