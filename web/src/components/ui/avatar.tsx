import { texts } from '@photo/contract';

type AvatarProps = {
  name: string | null | undefined;
  image?: string | null;
  size?: 'sm' | 'lg';
};

const sizes = { sm: 'size-9 text-sm', lg: 'size-28 text-3xl' };

/** The person's picture, or their initials (spec §9) when they have none. */
export function Avatar({ name, image, size = 'sm' }: AvatarProps) {
  if (image) {
    return <img src={image} alt={name ?? ''} className={`${sizes[size]} shrink-0 rounded-full object-cover`} />;
  }
  return (
    <span
      aria-hidden="true"
      data-testid="initials-avatar"
      className={`${sizes[size]} inline-flex shrink-0 items-center justify-center rounded-full bg-indigo-100 font-semibold text-indigo-700`}
    >
      {texts.initials(name)}
    </span>
  );
}
