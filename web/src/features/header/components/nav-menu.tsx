import { NavLink } from 'react-router';
import { Dropdown, dropdownItemClasses } from '@/components/ui/dropdown';
import { MenuIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';

const links = [
  { to: paths.sharedMedia.getHref(), label: 'Shared with me' },
  { to: paths.usersISharedWith.getHref(), label: 'Photos I Shared' },
  { to: paths.photosImIn.getHref(), label: "Photos I'm in" },
  { to: paths.trash.getHref(), label: 'Trash' },
  { to: paths.profile.getHref(), label: 'Profile' },
];

/** Spec §2 Header and menu: the dropdown of the user's other places. */
export function NavMenu() {
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
