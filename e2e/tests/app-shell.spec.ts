import type { Page } from '@playwright/test';
import { expect, newPerson, signUpByApi, test } from './fixtures.js';

async function signInAs(page: Page, token: string) {
  await page.addInitScript((value) => {
    if (!sessionStorage.getItem('e2e-token-set')) {
      localStorage.setItem('token', value);
      sessionStorage.setItem('e2e-token-set', '1');
    }
  }, token);
}

// Every guarded screen of spec §2's route table, as a signed-in person reaches it.
const guardedScreens = [
  '/',
  '/library',
  '/random',
  '/search/beach',
  '/profile',
  '/editProfile',
  '/uploadImages',
  '/shared/some-token',
  '/all-access',
  '/sharedMedia',
  '/sharedMedia/sharedWithMe/bob',
  '/user-access-data',
  '/shared/image/1',
  '/admin',
  '/users-i-sharedWith',
  '/shared-photos/bob',
  '/image/1',
  "/photos-i'm-in",
];

test('every screen of the route table opens for a signed-in person, with header and breadcrumbs', async ({ page, app }) => {
  const person = newPerson('cy');
  await signInAs(page, await signUpByApi(app, person));
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  for (const screen of guardedScreens) {
    await page.goto(screen);
    await expect(page, `${screen} stays put`).toHaveURL(new URL(screen, app.url).href);
    await expect(page.getByText('Unexpected Application Error!'), screen).toHaveCount(0);
    await expect(page.getByRole('link', { name: /home/i }).first(), `${screen} has the Home breadcrumb`).toBeVisible();
    await expect(page.getByText(person.username).first(), `${screen} shows the welcome name`).toBeVisible();
  }
  expect(failures).toEqual([]);
});

test('the guard sends a visitor without a token to sign-in, and public pages stay open', async ({ page }) => {
  for (const screen of ['/profile', '/admin', "/photos-i'm-in", '/image/3']) {
    await page.goto(screen);
    await expect(page).toHaveURL(/\/signin$/);
  }
  for (const screen of ['/signup', '/forgot-password', '/reset-password/abc', '/share-all/abc']) {
    await page.goto(screen);
    await expect(page).toHaveURL(new RegExp(`${screen}$`));
  }
  // The auth pages have no header search box.
  await page.goto('/signin');
  await expect(page.getByRole('searchbox')).toHaveCount(0);
});

test('an expired or forged session sends the person back to sign-in and clears the token', async ({ page }) => {
  await signInAs(page, 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyIjp7InJvbGUiOiJ1c2VyIn19.forged');
  const logs: string[] = [];
  page.on('console', (message) => logs.push(message.text()));
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/signin$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  expect(logs).toContain('Session expired. Please sign in again.');
});

test('only the admin sees the All Access share in the gallery', async ({ page, app }) => {
  await signInAs(page, app.admin.token);
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'All Access' }).or(page.getByRole('link', { name: 'All Access' })).first()).toBeVisible();

  const other = await page.context().browser()!.newContext();
  const userPage = await other.newPage();
  await signInAs(userPage, await signUpByApi(app, newPerson('di')));
  await userPage.goto(app.url + '/');
  await expect(userPage.getByText('Selective Access').first()).toBeVisible();
  await expect(userPage.getByRole('button', { name: 'All Access' })).toHaveCount(0);
  await expect(userPage.getByRole('link', { name: 'All Access' })).toHaveCount(0);
  await other.close();
});

test('breadcrumbs show display names from the server and link special segments', async ({ page, app }) => {
  await signInAs(page, await signUpByApi(app, newPerson('ed')));
  await page.goto('/library');
  const crumbs = page.getByRole('navigation', { name: /breadcrumb/i });
  await expect(crumbs.getByRole('link', { name: 'Image Library' })).toBeVisible();
  await page.goto('/sharedMedia/sharedWithMe/Zoë%20K');
  await expect(crumbs.getByText('Zoë K')).toBeVisible();
  await expect(crumbs.getByRole('link', { name: 'Shared with me' }).last()).toHaveAttribute('href', '/sharedMedia');
});

test('an unknown route shows the application error screen', async ({ page, app }) => {
  await signInAs(page, await signUpByApi(app, newPerson('fy')));
  await page.goto('/no/such/screen');
  await expect(page.getByText('Unexpected Application Error!')).toBeVisible();
  await expect(page.getByText(/404/)).toBeVisible();
});

test('on a phone-width screen the menus work from the keyboard', async ({ browser, app }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await signInAs(page, await signUpByApi(app, newPerson('gu')));
  await page.goto('/');
  const menuButton = page.getByRole('button', { name: /^menu$|open menu|main menu/i });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('link', { name: "Photos I'm in" })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('link', { name: "Photos I'm in" })).toBeHidden();
  // Nothing overflows sideways at phone width.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await context.close();
});

test('the menu reaches User Access Management for everyone, and the tag manager for an admin, after the spec links', async ({ browser, app }) => {
  const specLinks = ['Shared with me', 'Photos I Shared', "Photos I'm in", 'Trash', 'Profile'];
  const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

  // An admin, at desktop width.
  const adminContext = await browser.newContext({ baseURL: app.url, viewport: { width: 1366, height: 900 } });
  const admin = await adminContext.newPage();
  await signInAs(admin, app.admin.token);
  await admin.goto('/');
  await admin.getByRole('button', { name: 'Menu', exact: true }).click();
  await expect(mainMenu(admin).getByRole('link')).toHaveText([...specLinks, 'Manage access', 'Admin tags']);
  await mainMenu(admin).getByRole('link', { name: 'Admin tags' }).click();
  await expect(admin).toHaveURL(/\/admin$/);
  await expect(admin.getByRole('heading', { name: /^\d+ Tags?$/ })).toBeVisible();
  await admin.getByRole('button', { name: 'Menu', exact: true }).click();
  await mainMenu(admin).getByRole('link', { name: 'Manage access' }).click();
  await expect(admin).toHaveURL(/\/user-access-data$/);
  await expect(admin.getByRole('heading', { name: 'User Access Management' })).toBeVisible();
  await adminContext.close();

  // Anyone else, on a phone: Manage access, and no tag manager.
  const phone = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const page = await phone.newPage();
  await signInAs(page, await signUpByApi(app, newPerson('mu')));
  await page.goto('/');
  await page.getByRole('button', { name: 'Menu', exact: true }).tap();
  await expect(mainMenu(page).getByRole('link')).toHaveText([...specLinks, 'Manage access']);
  const manage = mainMenu(page).getByRole('link', { name: 'Manage access' });
  await expect(manage).toBeInViewport({ ratio: 1 });
  await manage.tap();
  await expect(page.getByRole('heading', { name: 'User Access Management' })).toBeVisible();
  await phone.close();
});

test('a screen whose code cannot be fetched reloads the page once, then offers Reload, which recovers', async ({ page, app }) => {
  await signInAs(page, await signUpByApi(app, newPerson('ch')));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Gallery' })).toBeVisible();
  // The profile screen's chunk is gone, as after an upgrade (or unreachable, as offline).
  let refused = 0;
  await page.route(/\/assets\/profile-screen-[^/]*\.js$/, (route) => {
    refused += 1;
    return route.abort('internetdisconnected');
  });
  let loads = 0;
  page.on('load', () => (loads += 1));

  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Profile' }).click();
  // One reload by itself (it fetches the page anew), then the error screen instead of another.
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await expect(page.getByText(/Failed to fetch dynamically imported module/)).toBeVisible();
  expect(loads).toBe(1);
  expect(refused).toBeGreaterThanOrEqual(2);
  await expect(page).toHaveURL(/\/profile$/);
  await page.waitForTimeout(1500);
  expect(loads).toBe(1);

  // The chunk can be fetched again: Reload brings the screen.
  await page.unroute(/\/assets\/profile-screen-[^/]*\.js$/);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('link', { name: 'Edit Profile' })).toBeVisible();
  await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0);
});
