//! Replays the LiteByte decoder fuzz check over the committed seed corpus and ~20k
//! deterministic mutations of the spec vectors.

use crate::fuzz_check;

// main.rs's allocator counts the heap: each decode is held to its budget (`fuzz_check::heap`).

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Spec vectors (§3, §4, §5, §8) used as mutation bases.
const VECTORS: &[&str] = &[
    "4E A1 86 01 0D E5 86 B0 E5 B0 81 E7 99 BE E5 BA A6 01 E7 03 3F 42 0F 07 3F 42 0F 7F 96 98 00",
    "9C A1 86 01 0D E5 86 B0 E5 B0 81 E7 99 BE E5 BA A6 01 E7 03 3F 42 0F 0E 3F 42 0F 7F 96 98 00",
    "4E A1 86 01 34 E5 86 B0 E5 B0 81 E7 99 BE E5 BA A6 01 E7 03 3F 42 0F 07 3F 42 0F 7F 96 98 00",
    "40 01 02 00 03 04",
    "04 10 01 FF E8 03",
    "04 05",
    "FF 01",
    "03 AA BB",
    "FF 02",
    "07 00 00 00 00 00 00 00 80",
    "04 00 00 00 80 00",
    "80 80 01",
    "04 04 61 00 DC 62",
    "04 61 00 FD FF 62 00",
    "02 01 B0 51",
    "00 40",
    "3E F9",
    "D4 ED 45",
    "08 01 02 03",
    "00",
    "01",
    "",
];

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

fn mutate(rng: &mut XorShift, base: &[u8]) -> Vec<u8> {
    let mut v = base.to_vec();
    let n = 1 + rng.next() % 4;
    for _ in 0..n {
        let r = rng.next();
        let pos = if v.is_empty() {
            0
        } else {
            (r >> 8) as usize % v.len()
        };
        match r % 6 {
            0 if !v.is_empty() => v[pos] ^= 1 << ((r >> 40) % 8),
            1 if !v.is_empty() => v[pos] = (r >> 16) as u8,
            2 => v.insert(pos.min(v.len()), (r >> 24) as u8),
            3 if !v.is_empty() => {
                v.remove(pos);
            }
            4 => v.truncate(pos),
            _ => {
                let extra = base.get(pos..).unwrap_or(&[]).to_vec();
                v.extend_from_slice(&extra);
            }
        }
    }
    v
}

#[test]
fn seed_corpus() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fuzz_seeds");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        fuzz_check::check(&data);
        n += 1;
    }
    assert!(n >= 10, "seed corpus has {n} files");
}

#[test]
fn spec_vectors_and_mutations() {
    let bases: Vec<Vec<u8>> = VECTORS.iter().map(|h| hex(h)).collect();
    for b in &bases {
        fuzz_check::check(b);
    }
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    for i in 0..20_000 {
        let base = &bases[i % bases.len()];
        let m = mutate(&mut rng, base);
        fuzz_check::check(&m);
    }
}
