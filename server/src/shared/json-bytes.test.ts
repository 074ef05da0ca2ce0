import { describe, expect, it } from 'vitest';
import { JsonBytes } from './json-bytes.js';

describe('JsonBytes', () => {
  it('copies its pieces, in order, into the start of the target', () => {
    const json = new JsonBytes(3);
    json.push(Buffer.from('{"a":'));
    json.pushText('"é"');
    json.push(Buffer.from('}'));
    const target = Buffer.alloc(64, 0x20);
    const written = json.copyInto(target);
    expect(written.toString('utf8')).toBe('{"a":"é"}');
    expect(json.byteLength).toBe(written.length);
    expect(json.onlyPiece).toBeUndefined();
  });

  it('lends its one kept piece as it is, to be sent without a copy', () => {
    const kept = Buffer.from(JSON.stringify({ images: [{ _id: '1' }] }));
    const json = new JsonBytes(1);
    json.push(kept);
    expect(json.onlyPiece).toBe(kept);
    expect(json.byteLength).toBe(kept.length);
  });
});
