// gen.mjs writes fixture.json for bot/rating to stdout: every expected rating
// comes from the reference openskill implementation (the exact version pinned
// in package.json) with its default options: Plackett-Luce model, one player
// per team, game outcome passed through the `rank` option.
//
//   cd bot/rating/testdata && npm ci && node gen.mjs > fixture.json
//
// Random inputs come from a fixed-seed generator, so the output is stable.
import { readFileSync } from 'node:fs'
import { rate, ordinal } from 'openskill'

// The installed version must be the pinned one, or the fixture would lie.
const readJSON = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'))
const { version } = readJSON('./node_modules/openskill/package.json')
const pinned = readJSON('./package.json').dependencies.openskill
if (version !== pinned) throw new Error(`installed openskill ${version}, pinned ${pinned}`)

// mulberry32: tiny deterministic PRNG so regeneration is reproducible.
const prng = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const rnd = prng(20240601)
const uniform = (lo, hi) => lo + (hi - lo) * rnd()
const intIn = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1))
// Round to 1e-6 so inputs are short and easy to read; outputs stay full precision.
const round6 = (x) => Math.round(x * 1e6) / 1e6

const DEFAULT = { mu: 25, sigma: 25 / 3 }
const defaults = (n) => Array.from({ length: n }, () => ({ ...DEFAULT }))
const places = (n) => Array.from({ length: n }, (_, i) => i + 1)

// randomRanks draws a finishing order for n players; with probability pTie a
// player shares the previous player's place. Ranks are then shuffled across seats.
const randomRanks = (n, pTie) => {
  const sorted = []
  for (let i = 0; i < n; i++) {
    sorted.push(i > 0 && rnd() < pTie ? sorted[i - 1] : i + 1)
  }
  for (let i = n - 1; i > 0; i--) {
    const j = intIn(0, i)
    ;[sorted[i], sorted[j]] = [sorted[j], sorted[i]]
  }
  return sorted
}

const randomRatings = (n, muLo, muHi, sigLo, sigHi) =>
  Array.from({ length: n }, () => ({
    mu: round6(uniform(muLo, muHi)),
    sigma: round6(uniform(sigLo, sigHi)),
  }))

// reference runs openskill's rate for a free-for-all game (one player per team).
const reference = (ratings, ranks) => {
  const out = rate(
    ratings.map((r) => [{ mu: r.mu, sigma: r.sigma }]),
    { rank: ranks },
  )
  return out.map(([p]) => {
    if (!Number.isFinite(p.mu) || !Number.isFinite(p.sigma)) {
      throw new Error(`non-finite reference output for ${JSON.stringify({ ratings, ranks })}`)
    }
    return { mu: p.mu, sigma: p.sigma }
  })
}

const cases = []
const add = (name, ratings, ranks) => {
  const expected = reference(ratings, ranks)
  cases.push({
    name,
    ratings,
    ranks,
    expected,
    ordinals: expected.map((r) => ordinal(r)),
  })
}

// Plain finishing orders from fresh ratings, every table size we use and 1.
add('single player', defaults(1), [1])
for (let n = 2; n <= 8; n++) add(`fresh ${n} players strict order`, defaults(n), places(n))
add('fresh 4 players reversed seats', defaults(4), [4, 3, 2, 1])

// Ties.
add('two-way tie 2 players', defaults(2), [1, 1])
add('two-way tie for first 3 players', defaults(3), [1, 1, 3])
add('two-way tie for last 3 players', defaults(3), [1, 2, 2])
add('three-way tie 3 players', defaults(3), [1, 1, 1])
add('two-way tie for first 4 players', defaults(4), [1, 1, 3, 4])
add('two-way tie in the middle 4 players', defaults(4), [1, 2, 2, 4])
add('three-way tie for first 5 players', defaults(5), [1, 1, 1, 4, 5])
add('three-way tie in the middle 6 players', defaults(6), [1, 2, 2, 2, 5, 6])
add('two ties 6 players', defaults(6), [3, 1, 5, 3, 1, 6])
add('everyone tied 8 players', defaults(8), [1, 1, 1, 1, 1, 1, 1, 1])
add('tie between unequal players', [{ mu: 35, sigma: 3 }, { mu: 18, sigma: 6 }, { mu: 25, sigma: 8 }], [1, 1, 3])

// Rank values: only their order matters, not the numbers.
add('sparse rank numbers', defaults(4), [10, 2, 7, 2])
add('zero and negative ranks', defaults(3), [0, -5, 3])

// Uneven sigmas.
add('uneven sigmas 2 players', [{ mu: 25, sigma: 1 }, { mu: 25, sigma: 25 / 3 }], [2, 1])
add('uneven sigmas 4 players', [
  { mu: 30, sigma: 0.5 },
  { mu: 27, sigma: 2 },
  { mu: 25, sigma: 25 / 3 },
  { mu: 20, sigma: 12 },
], [3, 1, 4, 2])
add('tiny sigma grows by tau', [{ mu: 40, sigma: 0.01 }, { mu: 10, sigma: 0.02 }], [1, 2])
add('zero sigma', [{ mu: 25, sigma: 0 }, { mu: 25, sigma: 25 / 3 }, { mu: 25, sigma: 4 }], [1, 2, 3])
add('upset: weak beats strong', [{ mu: 45, sigma: 1.5 }, { mu: 8, sigma: 7 }], [2, 1])
add('expected: strong beats weak', [{ mu: 45, sigma: 1.5 }, { mu: 8, sigma: 7 }], [1, 2])

// Extreme mus (still finite in the reference).
add('extreme mus 2 players', [{ mu: 1000, sigma: 25 / 3 }, { mu: -1000, sigma: 25 / 3 }], [2, 1])
add('extreme mus 3 players', [{ mu: 250, sigma: 3 }, { mu: -150, sigma: 9 }, { mu: 0.001, sigma: 0.5 }], [1, 3, 2])
add('extreme mus 8 players', Array.from({ length: 8 }, (_, i) => ({ mu: -500 + 1000 * i / 7, sigma: 1 + i })), [8, 7, 6, 5, 4, 3, 2, 1])
add('large equal mus', defaults(5).map((r) => ({ ...r, mu: 5000 })), [2, 1, 3, 5, 4])

// Random games across every size, with and without ties.
for (let k = 0; k < 24; k++) {
  const n = 2 + (k % 7)
  const ratings = randomRatings(n, -10, 60, 0.3, 12)
  add(`random ${k} ${n} players`, ratings, randomRanks(n, k % 3 === 0 ? 0 : 0.35))
}

// A long sequence: a roster plays many games, each game feeding the next.
// Each game is recorded with the inputs the reference saw, so a port can be
// checked per game and also by chaining its own outputs.
const roster = [
  ...defaults(4),
  { mu: 32, sigma: 4 }, // a seasoned player
  { mu: 20, sigma: 2 }, // a robot with a settled rating
  { mu: 25, sigma: 25 / 3 },
  { mu: 28, sigma: 6 },
]
const start = roster.map((r) => ({ ...r }))
const games = []
for (let g = 0; g < 120; g++) {
  const n = intIn(2, 8)
  const pool = roster.map((_, i) => i)
  for (let i = pool.length - 1; i > 0; i--) {
    const j = intIn(0, i)
    ;[pool[i], pool[j]] = [pool[j], pool[i]]
  }
  const seats = pool.slice(0, n)
  const ratings = seats.map((s) => ({ ...roster[s] }))
  const ranks = randomRanks(n, 0.2)
  const expected = reference(ratings, ranks)
  seats.forEach((s, i) => {
    roster[s] = { ...expected[i] }
  })
  games.push({ seats, ratings, ranks, expected })
}

const fixture = {
  source: 'openskill (npm)',
  version,
  model: 'PlackettLuce',
  options: 'defaults; rate(teams, { rank }) with one player per team',
  cases,
  sequence: { roster: start, games, final: roster },
}

// Keep each rating and each ranks/seats list on one line for reviewable diffs.
const text = JSON.stringify(fixture, null, 2)
  .replace(/\{\n\s+"mu": ([^,\n]+),\n\s+"sigma": ([^\n]+)\n\s+\}/g, '{ "mu": $1, "sigma": $2 }')
  .replace(/\[\n\s+(-?[\d.e+-]+(?:,\n\s+-?[\d.e+-]+)*)\n\s+\]/g, (_, body) => `[${body.split(/,\n\s+/).join(', ')}]`)
process.stdout.write(text + '\n')
