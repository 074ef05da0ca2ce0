import type { FileOutcome } from '../api/upload-outcome';

export type UploadReport = { kept: number; duplicate: number; refused: number; failed: number; stopped: boolean };

export function reportOf(outcomes: readonly (FileOutcome | undefined)[], stopped: boolean): UploadReport {
  const count = (status: FileOutcome['status']) => outcomes.filter((outcome) => outcome?.status === status).length;
  return { kept: count('kept'), duplicate: count('duplicate'), refused: count('refused'), failed: count('failed'), stopped };
}

/** Whether the library now holds at least one of the files (kept now, or already there). */
export function anyTaken(report: UploadReport): boolean {
  return report.kept + report.duplicate > 0;
}

const images = (count: number) => `${count} image${count === 1 ? '' : 's'}`;

/** "3 images uploaded, 1 already in your library, 2 refused." */
export function reportMessage(report: UploadReport): string {
  const parts = [`${images(report.kept)} uploaded`];
  if (report.duplicate > 0) parts.push(`${report.duplicate} already in your library`);
  if (report.refused > 0) parts.push(`${report.refused} refused`);
  return `${parts.join(', ')}.`;
}
