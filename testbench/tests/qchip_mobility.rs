//! The quiescence chip's count tree (`qchip_mobility`) on its own: from the array's
//! eight registered rank sums, the totals and the flags the controller tests, against
//! plain arithmetic on random and corner-case counts.

use hw::Bits;
use hw::chip::movegen::array::{RANK_CAP_BITS, RANK_QUIET_BITS};
use hw::chip::qsearch::mobility::mobility;
use sim::Simulator;

/// The eight rank sums packed as the array presents them (rank 1 in the low bits).
fn pack(ranks: &[u64; 8], width: u32) -> Bits {
    let mut words = [0u64; 2];
    for (r, &v) in ranks.iter().enumerate() {
        let at = r as u32 * width;
        words[(at / 64) as usize] |= v << (at % 64);
        if at % 64 + width > 64 {
            words[(at / 64) as usize + 1] |= v >> (64 - at % 64);
        }
    }
    Bits::from_words(&words, 8 * width)
}

#[test]
fn the_count_tree_sums_the_ranks_and_flags_two_moves_or_more() {
    let m = mobility().unwrap();
    let mut s = Simulator::new(&m).unwrap();
    let [caps_in, quiets_in] =
        ["rank_cap_counts", "rank_quiet_counts"].map(|n| s.input(n).unwrap());
    let [captures, quiets, any_capture, any_quiet, several] = [
        "captures",
        "quiets",
        "any_capture",
        "any_quiet",
        "several_quiets",
    ]
    .map(|n| s.output(n).unwrap());
    let mut rng = fastrand::Rng::with_seed(11);
    let mut cases: Vec<([u64; 8], [u64; 8])> = vec![
        ([0; 8], [0; 8]),
        ([0; 8], [0, 0, 0, 0, 0, 0, 0, 1]),
        ([0; 8], [0, 0, 2, 0, 0, 0, 0, 0]),
        ([0; 8], [1, 0, 0, 0, 0, 0, 0, 1]),
        ([272; 8], [248; 8]),
        ([1, 0, 0, 0, 0, 0, 0, 0], [0; 8]),
    ];
    for _ in 0..2000 {
        // Mostly sparse ranks, as real positions are, some full.
        let rank = |rng: &mut fastrand::Rng, max: u64| {
            if rng.u8(0..3) == 0 {
                rng.u64(0..=max)
            } else {
                rng.u64(0..3)
            }
        };
        cases.push((
            std::array::from_fn(|_| rank(&mut rng, 272)),
            std::array::from_fn(|_| rank(&mut rng, 248)),
        ));
    }
    for (caps, qs) in &cases {
        s.set_bits(caps_in, &pack(caps, RANK_CAP_BITS));
        s.set_bits(quiets_in, &pack(qs, RANK_QUIET_BITS));
        let (c, q): (u64, u64) = (caps.iter().sum(), qs.iter().sum());
        assert_eq!(s.get(captures), c, "captures of {caps:?}");
        assert_eq!(s.get(quiets), q, "quiets of {qs:?}");
        assert_eq!(s.get(any_capture), u64::from(c > 0));
        assert_eq!(s.get(any_quiet), u64::from(q > 0));
        assert_eq!(s.get(several), u64::from(q >= 2), "two or more of {qs:?}");
        s.step();
    }
}
