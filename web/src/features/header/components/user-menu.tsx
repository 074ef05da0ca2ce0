import { Link } from 'react-router';
import { Avatar } from '@/components/ui/avatar';
import { Dropdown, dropdownItemClasses } from '@/components/ui/dropdown';
import { ChevronDownIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { signOut, useCurrentUser } from '@/lib/auth';
import { getTokenPayload } from '@/lib/auth-token';

/** "Welcome, name" with the avatar, opening the profile menu (Profile, Sign Out). */
export function UserMenu() {
  const { data: user } = useCurrentUser();
  // Until /api/users/me answers, the token already knows the username.
  const name = user?.name ?? getTokenPayload()?.user.username ?? '';

  return (
    <Dropdown
      label="Profile menu"
      trigger={
        <>
          <Avatar name={name} image={user?.image ?? null} />
          <span className="hidden max-w-60 truncate text-sm md:inline">
            Welcome, <span className="font-semibold">{name}</span>
          </span>
          <ChevronDownIcon className="hidden size-4 md:inline" />
        </>
      }
    >
      <p className="truncate px-3 py-2 text-sm text-slate-500 md:hidden">Welcome, {name}</p>
      <Link to={paths.profile.getHref()} className={dropdownItemClasses}>
        Profile
      </Link>
      <button type="button" onClick={signOut} className={dropdownItemClasses}>
        Sign Out
      </button>
    </Dropdown>
  );
}
