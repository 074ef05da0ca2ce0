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
