import { NavLink } from 'react-router';
import { Dropdown, dropdownItemClasses } from '@/components/ui/dropdown';
import { MenuIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { isAdmin } from '@/lib/auth';

type MenuLink = { to: string; label: string };

/** Spec §2's links (Trash came later), in the spec's order and words. */
const specLinks: MenuLink[] = [
  { to: paths.sharedMedia.getHref(), label: 'Shared with me' },
  { to: paths.usersISharedWith.getHref(), label: 'Photos I Shared' },
  { to: paths.photosImIn.getHref(), label: "Photos I'm in" },
  { to: paths.trash.getHref(), label: 'Trash' },
  { to: paths.profile.getHref(), label: 'Profile' },
];

/**
 * Screens of the route table the spec's menu leaves out, with no other way in: User Access
 * Management (switching a recipient on or off, link downloads, e-mail templates) for everyone,
 * the tag manager for admins (the server refuses its calls to anyone else).
 */
const managementLinks = (admin: boolean): MenuLink[] => [
  { to: paths.userAccessData.getHref(), label: 'Manage access' },
  ...(admin ? [{ to: paths.admin.getHref(), label: 'Admin tags' }] : []),
];

/** Spec §2 Header and menu: the dropdown of the user's other places. */
export function NavMenu() {
  const links = [...specLinks, ...managementLinks(isAdmin())];
  return (
    <Dropdown label="Menu" trigger={<MenuIcon />}>
      <nav aria-label="Main menu">
        {links.map((link) => (
          <NavLink
            key={link.to}
            to={link.to}
            className={({ isActive }) => `${dropdownItemClasses} ${isActive ? 'font-semibold text-indigo-700' : ''}`}
          >
            {link.label}
          </NavLink>
        ))}
      </nav>
    </Dropdown>
  );
}
