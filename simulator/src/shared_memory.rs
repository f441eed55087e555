//! Shared memory and its banks.
//!
//! Hardware: each SM's shared memory is split into banks (32 on NVIDIA GPUs since Kepler) that each deliver one
//! 4-byte word per cycle; consecutive words go to consecutive banks. A warp's access is replayed once per extra
//! distinct word that falls in the busiest bank: lanes reading the *same* word are served by one broadcast, so
//! they do not conflict. The conflict degree is the largest number of distinct words in any one bank.
//!
//! Model: each block owns a zero-initialised array of words (its `.shared` arrays laid out in declaration
//! order). Every access computes its conflict degree; the timing model charges `(degree - 1) x bank_conflict`
//! extra cycles (about 2 per extra way on Hopper).

/// The bank of word `word`.
#[inline]
#[allow(clippy::cast_possible_truncation, reason = "below `banks`, a u32")]
pub fn bank(word: usize, banks: u32) -> u32 {
    (word % banks as usize) as u32
}

/// Conflict degree of an access touching `words` (one per executing lane, at most 64): the largest number of
/// distinct words mapping to one bank; 0 for no lanes. Allocation-free.
pub fn conflict_degree(words: &[usize], banks: u32) -> u32 {
    let mut sorted = [0usize; 64];
    let n = words.len().min(64);
    sorted[..n].copy_from_slice(&words[..n]);
    let sorted = &mut sorted[..n];
    sorted.sort_unstable();
    let mut per_bank = [0u32; 64];
    let mut degree = 0;
    for (k, &w) in sorted.iter().enumerate() {
        if k > 0 && sorted[k - 1] == w {
            continue; // the same word again: a broadcast
        }
        let b = bank(w, banks) as usize;
        per_bank[b] += 1;
        degree = degree.max(per_bank[b]);
    }
    degree
}

/// The largest number of lanes addressing one word (atomics to one address serialise). Allocation-free.
pub fn max_same_address(words: &[usize]) -> u32 {
    let mut sorted = [0usize; 64];
    let n = words.len().min(64);
    sorted[..n].copy_from_slice(&words[..n]);
    let sorted = &mut sorted[..n];
    sorted.sort_unstable();
    let (mut best, mut run) = (0u32, 0u32);
    for k in 0..n {
        run = if k > 0 && sorted[k - 1] == sorted[k] {
            run + 1
        } else {
            1
        };
        best = best.max(run);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stride_s_words_gives_degree_s() {
        for s in [1u32, 2, 4, 8, 16, 32] {
            let words: Vec<usize> = (0..32).map(|l| l * s as usize).collect();
            assert_eq!(conflict_degree(&words, 32), s, "stride {s}");
        }
    }

    #[test]
    fn same_word_is_a_broadcast() {
        assert_eq!(conflict_degree(&[7; 32], 32), 1);
    }

    #[test]
    fn distinct_words_in_one_bank_conflict_but_repeats_do_not() {
        // Words 0 and 32 share bank 0; word 0 read by two lanes counts once.
        assert_eq!(conflict_degree(&[0, 0, 32, 1], 32), 2);
        assert_eq!(conflict_degree(&[], 32), 0);
    }

    #[test]
    fn same_address_counts_lanes() {
        assert_eq!(max_same_address(&[5, 5, 5, 1, 2]), 3);
        assert_eq!(max_same_address(&[1, 2, 3]), 1);
        assert_eq!(max_same_address(&[]), 0);
    }
}
