/**
 * The canvas a GIF really needs. Its header states a "logical screen", but a frame may be declared
 * far outside it and decoders grow the canvas to fit: the classic GIF decompression bomb (a 44-byte
 * file with a 32×32 screen and a 65535-wide frame). Reads only the header and the first frame's
 * descriptor from `head`; undefined when they are not within it.
 */
export function gifCanvasSize(head: Buffer): { width: number; height: number } | undefined {
  if (head.length < 13 || !/^GIF8[79]a$/.test(head.subarray(0, 6).toString('latin1'))) return undefined;
  const screenWidth = head.readUInt16LE(6);
  const screenHeight = head.readUInt16LE(8);
  const flags = head[10] ?? 0;
  let offset = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  while (offset < head.length) {
    const block = head[offset];
    if (block === 0x2c) {
      if (offset + 9 > head.length) return undefined;
      const left = head.readUInt16LE(offset + 1);
      const top = head.readUInt16LE(offset + 3);
      const width = head.readUInt16LE(offset + 5);
      const height = head.readUInt16LE(offset + 7);
      return { width: Math.max(screenWidth, left + width), height: Math.max(screenHeight, top + height) };
    }
    if (block !== 0x21) return undefined; // trailer or garbage
    // Extension: label byte, then data sub-blocks each led by its length, ended by a zero length.
    offset += 2;
    while (offset < head.length && head[offset] !== 0) offset += (head[offset] ?? 0) + 1;
    offset += 1;
  }
  return undefined;
}
