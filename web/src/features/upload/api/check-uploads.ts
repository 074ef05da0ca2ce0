import { calls, MAX_CHECK_FILES } from '@photo/contract';
import { callApi } from '@/lib/api-client';

export type Content = { sha256: string; size: number };

/**
 * Which of these contents the person already has in their library (POST /api/uploads/check, at most
 * MAX_CHECK_FILES per call): their bytes need not be sent. Answers the known hashes.
 */
export async function knownContents(files: readonly Content[], signal?: AbortSignal): Promise<Set<string>> {
  const known = new Set<string>();
  for (let start = 0; start < files.length; start += MAX_CHECK_FILES) {
    const answer = await callApi(calls.checkUploads, { body: { files: files.slice(start, start + MAX_CHECK_FILES) }, signal });
    for (const entry of answer.known) known.add(entry.sha256);
  }
  return known;
}
