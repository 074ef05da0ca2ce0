// A realistic tag vocabulary for the benchmark library: 10,000 distinct lower-case tags made of
// everyday words, places, people, events and years, used with a long-tailed (Zipf) popularity:
// a few tags ('beach', 'family') are on tens of thousands of images, most on a handful.

const WORDS = `beach family summer winter spring autumn holiday birthday wedding party christmas easter
sunset sunrise mountain lake river forest garden city street night snow rain sea island park
dog cat horse bird flowers food dinner breakfast coffee cake friends kids baby grandma grandpa
school graduation concert festival football hiking camping skiing cycling running swimming
road trip museum church castle bridge harbour boat train airport car house kitchen portrait
selfie landscape architecture sky clouds moon stars fireworks market desert waterfall cave
vineyard farm zoo aquarium playground picnic barbecue halloween newyear anniversary reunion
office work conference team sports game stadium theatre cinema library university campus`
  .split(/\s+/)
  .filter(Boolean);

const PLACES = `paris london berlin rome madrid lisbon vienna prague amsterdam oslo stockholm helsinki
copenhagen dublin edinburgh athens istanbul cairo tokyo kyoto seoul beijing bangkok sydney
melbourne auckland toronto vancouver montreal chicago boston seattle denver austin miami
havana lima santiago bogota quito cusco marrakech capetown nairobi zanzibar bali hanoi delhi
goa lapland iceland tuscany provence bavaria alps pyrenees dolomites scotland wales cornwall`
  .split(/\s+/)
  .filter(Boolean);

const PEOPLE = `anna ben clara david emma felix greta henry ida jonas karla leo mia noah olga paul
rosa sam tina ugo vera will xena yuri zoe`.split(/\s+/).filter(Boolean);

/** `count` distinct tags, most popular first (index 0 is the most used). */
export function vocabulary(count = 10_000) {
  const tags = [];
  const seen = new Set();
  const add = (tag) => {
    if (tags.length < count && !seen.has(tag)) {
      seen.add(tag);
      tags.push(tag);
    }
  };
  for (const w of WORDS) add(w);
  for (const p of PLACES) add(p);
  for (const p of PEOPLE) add(p);
  for (let year = 2024; year >= 1990 && tags.length < count; year -= 1) {
    for (const w of WORDS) add(`${w} ${year}`);
    for (const p of PLACES) add(`${p} ${year}`);
  }
  for (const p of PLACES) for (const w of WORDS) add(`${p} ${w}`);
  for (const person of PEOPLE) for (const w of WORDS) add(`${person} ${w}`);
  if (tags.length < count) throw new Error(`the vocabulary generator makes only ${tags.length} tags`);
  return tags;
}

/**
 * The tags of image `i`: 3 to 7 distinct vocabulary indexes drawn from a Zipf(1) distribution,
 * deterministic in `i` so every build of the library is the same.
 */
export function tagsOfImage(i, vocabularySize, cumulative = zipfCumulative(vocabularySize)) {
  const wanted = 3 + (i % 5);
  const picked = new Set();
  let seed = (i * 2_654_435_761) >>> 0;
  while (picked.size < wanted) {
    seed = (seed * 1_664_525 + 1_013_904_223) >>> 0;
    picked.add(lowerBound(cumulative, seed / 2 ** 32));
  }
  return [...picked];
}

/** Cumulative Zipf(1) probabilities over ranks 1..n. */
export function zipfCumulative(n) {
  const weights = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r += 1) sum += weights[r] = 1 / (r + 1);
  let acc = 0;
  for (let r = 0; r < n; r += 1) weights[r] = acc += weights[r] / sum;
  return weights;
}

function lowerBound(cumulative, x) {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
