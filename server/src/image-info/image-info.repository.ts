import type { Kysely } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import { onlyVisible } from '../access/image-visibility.js';
import type { DB } from '../db/schema.js';

/** What the info panel shows of one image: its upload and the picture's stored facts. */
export interface ImageInfoRow {
  id: number;
  uploaded_by: number;
  file_name: string;
  created_at: string;
  taken_key: number;
  date_source: 'taken' | 'file' | 'upload';
  byte_size: number;
  width: number | null;
  height: number | null;
  taken_at: string | null;
  taken_offset: string | null;
  camera: string | null;
  lens: string | null;
  f_number: number | null;
  exposure_time: number | null;
  iso: number | null;
  focal_length: number | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
}

export class ImageInfoRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** One ready image the person may see, with its picture's facts; undefined otherwise. */
  findVisible(user: AuthUser, id: number): Promise<ImageInfoRow | undefined> {
    const query = this.db
      .selectFrom('images')
      .innerJoin('media', 'media.id', 'images.media_id')
      .select([
        'images.id', 'images.uploaded_by', 'images.file_name', 'images.created_at', 'images.taken_key', 'images.date_source',
        'media.byte_size', 'media.width', 'media.height', 'media.taken_at', 'media.taken_offset', 'media.camera', 'media.lens',
        'media.f_number', 'media.exposure_time', 'media.iso', 'media.focal_length', 'media.gps_latitude', 'media.gps_longitude',
      ])
      .where('images.id', '=', id)
      .where('images.ready', '=', 1);
    return onlyVisible(query, user).executeTakeFirst();
  }
}
