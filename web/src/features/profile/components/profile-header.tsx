import type { Profile } from '@photo/contract';
import { LinkButton } from '@/components/ui/button';
import { UserIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';

/** Picture (or a default avatar), username, and the two ways to change things. */
export function ProfileHeader({ profile }: { profile: Profile }) {
  const picture = profile.profileImage ?? profile.image;
  return (
    <section className="mb-8 flex flex-col items-center gap-4 rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200 sm:flex-row sm:text-left">
      {picture ? (
        <img src={picture} alt="Profile picture" className="size-28 shrink-0 rounded-full object-cover" />
      ) : (
        <span
          role="img"
          aria-label="Default avatar"
          className="flex size-28 shrink-0 items-center justify-center rounded-full bg-slate-200 text-slate-500"
        >
          <UserIcon className="size-14" />
        </span>
      )}
      <div className="flex flex-1 flex-col gap-1">
        <h1 className="text-2xl font-semibold text-slate-900">{profile.username}</h1>
        <p className="text-slate-600">{profile.email}</p>
      </div>
      <div className="flex flex-wrap justify-center gap-2">
        <LinkButton to={paths.editProfile.getHref()}>Edit Profile</LinkButton>
        <LinkButton to={paths.uploadImages.getHref()} variant="primary">
          Upload Images
        </LinkButton>
      </div>
    </section>
  );
}
