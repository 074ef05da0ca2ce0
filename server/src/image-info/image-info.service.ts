import type { ImageInfo } from '@photo/contract';
import type { AuthUser } from '../auth/auth-user.js';
import { maySeeLocation } from '../access/viewer.js';
import { notFound } from '../http/errors.js';
import { parseImageId } from '../images/visible-image.js';
import { keyToIso } from '../timeline/taken-key.js';
import type { ImageInfoRepository, ImageInfoRow } from './image-info.repository.js';

/** The detail view's info panel (issue 11): what the camera recorded, for anyone who sees the image. */
export class ImageInfoService {
  constructor(private readonly repository: ImageInfoRepository) {}

  async info(user: AuthUser, id: string): Promise<ImageInfo> {
    const numeric = parseImageId(id);
    const row = numeric === undefined ? undefined : await this.repository.findVisible(user, numeric);
    // Not visible, in the Trash or still being processed: as absent as an id that never existed.
    if (!row) throw notFound('Image not found');
    return presentInfo(row, user);
  }
}

function presentInfo(row: ImageInfoRow, user: AuthUser): ImageInfo {
  const { gps_latitude: latitude, gps_longitude: longitude } = row;
  return {
    _id: String(row.id),
    fileName: row.file_name,
    fileSize: Number(row.byte_size),
    width: row.width,
    height: row.height,
    takenAt: row.taken_at,
    takenOffset: row.taken_at ? row.taken_offset : null,
    dateSource: row.date_source,
    sortedAt: keyToIso(Number(row.taken_key)),
    camera: row.camera,
    lens: row.lens,
    aperture: row.f_number,
    exposureTime: row.exposure_time,
    iso: row.iso,
    focalLength: row.focal_length,
    place: latitude !== null && longitude !== null && maySeeLocation(user, row) ? { latitude, longitude } : null,
    uploadedAt: row.created_at,
  };
}
