/**
 * An answer's JSON gathered as UTF-8 pieces (kept Buffers, mostly: image-cards/card-json.ts) and
 * copied once into one Buffer, which the socket sends without encoding it again. For a search's 500
 * images (~2,500 pieces, ~300 KB) that copy takes ~0.08 ms; joining the same pieces as text and then
 * encoding the string took ~0.5 ms (decision 0032).
 *
 * The copy is made when the answer is sent, into bytes lent for the send (http/answer-scratch.ts);
 * a cache keeps the pieces themselves (decision 0034). The pieces are never changed once pushed: a
 * card's pieces are replaced, not rewritten, when it changes.
 */
export class JsonBytes {
  private readonly pieces: Buffer[];
  private count = 0;
  private length = 0;

  /**
   * `expectedPieces`: how many pieces the answer will have, when known (a page of cards: six per
   * image). The list is then made once at its size: grown piece by piece it was reallocated ~6
   * times per page, and with the argument lists of the pushes, a seventh of all the server
   * allocated under issue 13's crowd.
   */
  constructor(expectedPieces = 0) {
    this.pieces = expectedPieces > 0 ? new Array<Buffer>(expectedPieces) : [];
  }

  push(piece: Buffer): void {
    this.pieces[this.count++] = piece;
    this.length += piece.length;
  }

  /** Five pieces at once, without an argument list made per call (a card: card-json.ts). */
  push5(a: Buffer, b: Buffer, c: Buffer, d: Buffer, e: Buffer): void {
    this.push(a);
    this.push(b);
    this.push(c);
    this.push(d);
    this.push(e);
  }

  /** Text made per answer (a page's pagination, say): encoded here. */
  pushText(text: string): void {
    if (text.length > 0) this.push(Buffer.from(text));
  }

  get byteLength(): number {
    return this.length;
  }

  /**
   * The answer when it is one kept piece (a cached answer: the tag filter's), which the socket can
   * send as it is: pieces are never changed, so nothing needs copying, nor bytes lent while a slow
   * client reads it.
   */
  get onlyPiece(): Buffer | undefined {
    return this.count === 1 ? this.pieces[0] : undefined;
  }

  /** The answer copied into the start of `target` (at least `byteLength` long); the bytes written. */
  copyInto(target: Buffer): Buffer {
    let at = 0;
    for (let i = 0; i < this.count; i += 1) at += (this.pieces[i] as Buffer).copy(target, at);
    return target.subarray(0, at);
  }
}

/** Pieces every answer uses, encoded once. */
export const JSON_COMMA = Buffer.from(',');
export const JSON_OPEN_ARRAY = Buffer.from('[');
export const JSON_CLOSE_ARRAY = Buffer.from(']');
