import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { samplePlaceholder } from '@/testing/images';
import { Thumbnail } from './thumbnail';

const box = (img: HTMLElement) => img.parentElement!;

describe('Thumbnail', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps the picture’s aspect ratio and shows the decoded placeholder until the picture loads', () => {
    render(<Thumbnail src="/media/a.webp" alt="Beach" placeholder={samplePlaceholder()} width={400} height={300} />);
    const img = screen.getByRole('img', { name: 'Beach' });
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).toHaveAttribute('decoding', 'async');
    expect(box(img).style.aspectRatio).toBe('400 / 300');
    expect(box(img).style.backgroundImage).toMatch(/^url\("data:image\/png;base64,/);
    // Blurred and invisible until loaded, then sharp.
    expect(img).toHaveClass('opacity-0', 'blur-md');
    fireEvent.load(img);
    expect(img).toHaveClass('opacity-100', 'blur-0');
    expect(img).toHaveAttribute('data-loaded', 'true');
  });

  it('is a grey square without placeholder or size', () => {
    render(<Thumbnail src="/media/a.webp" alt="Beach" />);
    const img = screen.getByRole('img', { name: 'Beach' });
    expect(box(img).style.aspectRatio).toBe('1 / 1');
    expect(box(img).style.backgroundImage).toBe('');
    expect(box(img)).toHaveClass('bg-slate-200');
  });

  it('only warns when the picture fails to load, and keeps the placeholder', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(<Thumbnail src="/media/gone.webp" alt="Gone" placeholder={samplePlaceholder()} />);
    const img = screen.getByRole('img', { name: 'Gone' });
    fireEvent.error(img);
    expect(warn).toHaveBeenCalledWith('Image failed to load: Gone');
    expect(img).toHaveClass('opacity-0');
    expect(box(img).style.backgroundImage).toMatch(/^url\("data:/);
  });

  it('hides a preview picture that fails (a revoked image answers 404), never showing a broken image', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { container } = render(<Thumbnail src="/media/big.webp" previewSrc="/media/small.webp" alt="Photo" lazy="eager" />);
    fireEvent.error(container.querySelector('img[src="/media/small.webp"]')!);
    expect(container.querySelector('img[src="/media/small.webp"]')).toBeNull();
    fireEvent.error(screen.getByRole('img', { name: 'Photo' }));
    expect(screen.getByRole('img', { name: 'Photo' })).toHaveClass('opacity-0');
  });

  it('ignores a malformed placeholder', () => {
    render(<Thumbnail src="/media/a.webp" alt="Beach" placeholder="%%not base64%%" />);
    expect(box(screen.getByRole('img', { name: 'Beach' })).style.backgroundImage).toBe('');
  });

  it('starts the fade again when it shows another picture', () => {
    const { rerender } = render(<Thumbnail src="/media/a.webp" alt="Photo" />);
    fireEvent.load(screen.getByRole('img', { name: 'Photo' }));
    rerender(<Thumbnail src="/media/b.webp" alt="Photo" />);
    expect(screen.getByRole('img', { name: 'Photo' })).toHaveAttribute('data-loaded', 'false');
  });

  it('shows the preview picture underneath while the display picture loads', () => {
    const { container } = render(<Thumbnail src="/media/big.webp" previewSrc="/media/small.webp" alt="Photo" lazy="eager" />);
    expect(container.querySelector('img[src="/media/small.webp"]')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByRole('img', { name: 'Photo' })).toHaveAttribute('loading', 'eager');
    fireEvent.load(screen.getByRole('img', { name: 'Photo' }));
    expect(container.querySelector('img[src="/media/small.webp"]')).toBeNull();
  });

  it('in "near" mode loads only after 100 ms within 400px of the viewport (spec §9)', () => {
    vi.useFakeTimers();
    let report: (isIntersecting: boolean) => void = () => {};
    const observe = vi.fn();
    class FakeObserver {
      constructor(callback: IntersectionObserverCallback, readonly options: IntersectionObserverInit) {
        expect(options.rootMargin).toBe('400px');
        report = (isIntersecting) => callback([{ isIntersecting } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
      }
      observe = observe;
      disconnect() {}
    }
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const { container } = render(<Thumbnail src="/media/a.webp" alt="Far" lazy="near" />);
    expect(observe).toHaveBeenCalled();
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByRole('img', { name: 'Far' })).toBeInTheDocument();

    // Flung past: near for less than 100 ms loads nothing.
    act(() => report(true));
    act(() => vi.advanceTimersByTime(60));
    act(() => report(false));
    act(() => vi.advanceTimersByTime(200));
    expect(container.querySelector('img')).toBeNull();

    act(() => report(true));
    act(() => vi.advanceTimersByTime(100));
    expect(container.querySelector('img')).toHaveAttribute('src', '/media/a.webp');
  });

  it('without a src is a labelled grey box', () => {
    render(<Thumbnail src={null} alt="Not ready" width={3} height={2} />);
    const placeholder = screen.getByRole('img', { name: 'Not ready' });
    expect(placeholder.tagName).toBe('SPAN');
    expect(placeholder.style.aspectRatio).toBe('3 / 2');
  });
});
