import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '@/testing/fetch-stub';
import { renderApp } from '@/testing/render-app';

function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  act(() => {
    window.dispatchEvent(new Event('scroll'));
  });
}

describe('header', () => {
  it('becomes sticky only after 50px of scroll', async () => {
    stubFetch();
    renderApp('/signin');
    const header = await screen.findByRole('banner');
    scrollTo(50);
    expect(header).toHaveAttribute('data-sticky', 'false');
    scrollTo(51);
    expect(header).toHaveAttribute('data-sticky', 'true');
    expect(header).toHaveClass('sticky');
    scrollTo(0);
    expect(header).toHaveAttribute('data-sticky', 'false');
  });

  it('has a logo link home', async () => {
    stubFetch();
    renderApp('/signin');
    expect(await screen.findByRole('link', { name: /Photo Library/ })).toHaveAttribute('href', '/');
  });
});
