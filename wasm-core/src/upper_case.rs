//! Upper-casing a character exactly as `char::to_uppercase` does, from tables a tenth the size of
//! core's (issue 22: core's case table was ~14 kB of the patient package, for the first letter of
//! a localized date). The tables are written out by `print_tables` below from the toolchain's own
//! `to_uppercase`, and a test compares every character with it, so a toolchain with newer Unicode
//! data fails that test until the tables are written out again.

/// Runs of characters whose capital is `c + delta`: `first`, `first + step`, ... (`len` of them).
struct Run {
    first: u32,
    delta: i32,
    len: u8,
    step: u8,
}

const fn run(first: u32, len: u8, step: u8, delta: i32) -> Run {
    Run {
        first,
        delta,
        len,
        step,
    }
}

/// `c` and its capital when that is more than one character (the rest `0`), e.g. ß -> SS.
type Multi = (u16, [u16; 3]);

/// Appends the capital of `c` (one to three characters) to `out`, as `out.extend(c.to_uppercase())`.
pub fn push_upper(out: &mut String, c: char) {
    let cp = c as u32;
    if let Ok(i) = MULTI.binary_search_by_key(&cp, |&(from, _)| u32::from(from)) {
        let (_, to) = MULTI[i];
        for unit in to.into_iter().take_while(|&u| u != 0) {
            out.push(char::from_u32(u32::from(unit)).unwrap_or(c));
        }
        return;
    }
    let i = RUNS.partition_point(|r| r.first <= cp);
    let upper = i
        .checked_sub(1)
        .map(|i| &RUNS[i])
        .filter(|r| {
            let offset = cp - r.first;
            offset.is_multiple_of(u32::from(r.step))
                && offset / u32::from(r.step) < u32::from(r.len)
        })
        .and_then(|r| char::from_u32(cp.wrapping_add_signed(r.delta)));
    out.push(upper.unwrap_or(c));
}

#[rustfmt::skip]
const RUNS: [Run; 198] = [
    run(0x61, 26, 1, -32),
    run(0xB5, 1, 1, 743),
    run(0xE0, 23, 1, -32),
    run(0xF8, 7, 1, -32),
    run(0xFF, 1, 1, 121),
    run(0x101, 24, 2, -1),
    run(0x131, 1, 1, -232),
    run(0x133, 3, 2, -1),
    run(0x13A, 8, 2, -1),
    run(0x14B, 23, 2, -1),
    run(0x17A, 3, 2, -1),
    run(0x17F, 1, 1, -300),
    run(0x180, 1, 1, 195),
    run(0x183, 2, 2, -1),
    run(0x188, 1, 1, -1),
    run(0x18C, 1, 1, -1),
    run(0x192, 1, 1, -1),
    run(0x195, 1, 1, 97),
    run(0x199, 1, 1, -1),
    run(0x19A, 1, 1, 163),
    run(0x19B, 1, 1, 42561),
    run(0x19E, 1, 1, 130),
    run(0x1A1, 3, 2, -1),
    run(0x1A8, 1, 1, -1),
    run(0x1AD, 1, 1, -1),
    run(0x1B0, 1, 1, -1),
    run(0x1B4, 2, 2, -1),
    run(0x1B9, 1, 1, -1),
    run(0x1BD, 1, 1, -1),
    run(0x1BF, 1, 1, 56),
    run(0x1C5, 1, 1, -1),
    run(0x1C6, 1, 1, -2),
    run(0x1C8, 1, 1, -1),
    run(0x1C9, 1, 1, -2),
    run(0x1CB, 1, 1, -1),
    run(0x1CC, 1, 1, -2),
    run(0x1CE, 8, 2, -1),
    run(0x1DD, 1, 1, -79),
    run(0x1DF, 9, 2, -1),
    run(0x1F2, 1, 1, -1),
    run(0x1F3, 1, 1, -2),
    run(0x1F5, 1, 1, -1),
    run(0x1F9, 20, 2, -1),
    run(0x223, 9, 2, -1),
    run(0x23C, 1, 1, -1),
    run(0x23F, 2, 1, 10815),
    run(0x242, 1, 1, -1),
    run(0x247, 5, 2, -1),
    run(0x250, 1, 1, 10783),
    run(0x251, 1, 1, 10780),
    run(0x252, 1, 1, 10782),
    run(0x253, 1, 1, -210),
    run(0x254, 1, 1, -206),
    run(0x256, 2, 1, -205),
    run(0x259, 1, 1, -202),
    run(0x25B, 1, 1, -203),
    run(0x25C, 1, 1, 42319),
    run(0x260, 1, 1, -205),
    run(0x261, 1, 1, 42315),
    run(0x263, 1, 1, -207),
    run(0x264, 1, 1, 42343),
    run(0x265, 1, 1, 42280),
    run(0x266, 1, 1, 42308),
    run(0x268, 1, 1, -209),
    run(0x269, 1, 1, -211),
    run(0x26A, 1, 1, 42308),
    run(0x26B, 1, 1, 10743),
    run(0x26C, 1, 1, 42305),
    run(0x26F, 1, 1, -211),
    run(0x271, 1, 1, 10749),
    run(0x272, 1, 1, -213),
    run(0x275, 1, 1, -214),
    run(0x27D, 1, 1, 10727),
    run(0x280, 1, 1, -218),
    run(0x282, 1, 1, 42307),
    run(0x283, 1, 1, -218),
    run(0x287, 1, 1, 42282),
    run(0x288, 1, 1, -218),
    run(0x289, 1, 1, -69),
    run(0x28A, 2, 1, -217),
    run(0x28C, 1, 1, -71),
    run(0x292, 1, 1, -219),
    run(0x29D, 1, 1, 42261),
    run(0x29E, 1, 1, 42258),
    run(0x345, 1, 1, 84),
    run(0x371, 2, 2, -1),
    run(0x377, 1, 1, -1),
    run(0x37B, 3, 1, 130),
    run(0x3AC, 1, 1, -38),
    run(0x3AD, 3, 1, -37),
    run(0x3B1, 17, 1, -32),
    run(0x3C2, 1, 1, -31),
    run(0x3C3, 9, 1, -32),
    run(0x3CC, 1, 1, -64),
    run(0x3CD, 2, 1, -63),
    run(0x3D0, 1, 1, -62),
    run(0x3D1, 1, 1, -57),
    run(0x3D5, 1, 1, -47),
    run(0x3D6, 1, 1, -54),
    run(0x3D7, 1, 1, -8),
    run(0x3D9, 12, 2, -1),
    run(0x3F0, 1, 1, -86),
    run(0x3F1, 1, 1, -80),
    run(0x3F2, 1, 1, 7),
    run(0x3F3, 1, 1, -116),
    run(0x3F5, 1, 1, -96),
    run(0x3F8, 1, 1, -1),
    run(0x3FB, 1, 1, -1),
    run(0x430, 32, 1, -32),
    run(0x450, 16, 1, -80),
    run(0x461, 17, 2, -1),
    run(0x48B, 27, 2, -1),
    run(0x4C2, 7, 2, -1),
    run(0x4CF, 1, 1, -15),
    run(0x4D1, 48, 2, -1),
    run(0x561, 38, 1, -48),
    run(0x10D0, 43, 1, 3008),
    run(0x10FD, 3, 1, 3008),
    run(0x13F8, 6, 1, -8),
    run(0x1C80, 1, 1, -6254),
    run(0x1C81, 1, 1, -6253),
    run(0x1C82, 1, 1, -6244),
    run(0x1C83, 2, 1, -6242),
    run(0x1C85, 1, 1, -6243),
    run(0x1C86, 1, 1, -6236),
    run(0x1C87, 1, 1, -6181),
    run(0x1C88, 1, 1, 35266),
    run(0x1C8A, 1, 1, -1),
    run(0x1D79, 1, 1, 35332),
    run(0x1D7D, 1, 1, 3814),
    run(0x1D8E, 1, 1, 35384),
    run(0x1E01, 75, 2, -1),
    run(0x1E9B, 1, 1, -59),
    run(0x1EA1, 48, 2, -1),
    run(0x1F00, 8, 1, 8),
    run(0x1F10, 6, 1, 8),
    run(0x1F20, 8, 1, 8),
    run(0x1F30, 8, 1, 8),
    run(0x1F40, 6, 1, 8),
    run(0x1F51, 4, 2, 8),
    run(0x1F60, 8, 1, 8),
    run(0x1F70, 2, 1, 74),
    run(0x1F72, 4, 1, 86),
    run(0x1F76, 2, 1, 100),
    run(0x1F78, 2, 1, 128),
    run(0x1F7A, 2, 1, 112),
    run(0x1F7C, 2, 1, 126),
    run(0x1FB0, 2, 1, 8),
    run(0x1FBE, 1, 1, -7205),
    run(0x1FD0, 2, 1, 8),
    run(0x1FE0, 2, 1, 8),
    run(0x1FE5, 1, 1, 7),
    run(0x214E, 1, 1, -28),
    run(0x2170, 16, 1, -16),
    run(0x2184, 1, 1, -1),
    run(0x24D0, 26, 1, -26),
    run(0x2C30, 48, 1, -48),
    run(0x2C61, 1, 1, -1),
    run(0x2C65, 1, 1, -10795),
    run(0x2C66, 1, 1, -10792),
    run(0x2C68, 3, 2, -1),
    run(0x2C73, 1, 1, -1),
    run(0x2C76, 1, 1, -1),
    run(0x2C81, 50, 2, -1),
    run(0x2CEC, 2, 2, -1),
    run(0x2CF3, 1, 1, -1),
    run(0x2D00, 38, 1, -7264),
    run(0x2D27, 1, 1, -7264),
    run(0x2D2D, 1, 1, -7264),
    run(0xA641, 23, 2, -1),
    run(0xA681, 14, 2, -1),
    run(0xA723, 7, 2, -1),
    run(0xA733, 31, 2, -1),
    run(0xA77A, 2, 2, -1),
    run(0xA77F, 5, 2, -1),
    run(0xA78C, 1, 1, -1),
    run(0xA791, 2, 2, -1),
    run(0xA794, 1, 1, 48),
    run(0xA797, 10, 2, -1),
    run(0xA7B5, 8, 2, -1),
    run(0xA7C8, 2, 2, -1),
    run(0xA7CD, 8, 2, -1),
    run(0xA7F6, 1, 1, -1),
    run(0xAB53, 1, 1, -928),
    run(0xAB70, 80, 1, -38864),
    run(0xFF41, 26, 1, -32),
    run(0x10428, 40, 1, -40),
    run(0x104D8, 36, 1, -40),
    run(0x10597, 11, 1, -39),
    run(0x105A3, 15, 1, -39),
    run(0x105B3, 7, 1, -39),
    run(0x105BB, 2, 1, -39),
    run(0x10CC0, 51, 1, -64),
    run(0x10D70, 22, 1, -32),
    run(0x118C0, 32, 1, -32),
    run(0x16E60, 32, 1, -32),
    run(0x16EBB, 25, 1, -27),
    run(0x1E922, 34, 1, -34),
];

#[rustfmt::skip]
const MULTI: [Multi; 102] = [
    (0xDF, [0x53, 0x53, 0x0]),
    (0x149, [0x2BC, 0x4E, 0x0]),
    (0x1F0, [0x4A, 0x30C, 0x0]),
    (0x390, [0x399, 0x308, 0x301]),
    (0x3B0, [0x3A5, 0x308, 0x301]),
    (0x587, [0x535, 0x552, 0x0]),
    (0x1E96, [0x48, 0x331, 0x0]),
    (0x1E97, [0x54, 0x308, 0x0]),
    (0x1E98, [0x57, 0x30A, 0x0]),
    (0x1E99, [0x59, 0x30A, 0x0]),
    (0x1E9A, [0x41, 0x2BE, 0x0]),
    (0x1F50, [0x3A5, 0x313, 0x0]),
    (0x1F52, [0x3A5, 0x313, 0x300]),
    (0x1F54, [0x3A5, 0x313, 0x301]),
    (0x1F56, [0x3A5, 0x313, 0x342]),
    (0x1F80, [0x1F08, 0x399, 0x0]),
    (0x1F81, [0x1F09, 0x399, 0x0]),
    (0x1F82, [0x1F0A, 0x399, 0x0]),
    (0x1F83, [0x1F0B, 0x399, 0x0]),
    (0x1F84, [0x1F0C, 0x399, 0x0]),
    (0x1F85, [0x1F0D, 0x399, 0x0]),
    (0x1F86, [0x1F0E, 0x399, 0x0]),
    (0x1F87, [0x1F0F, 0x399, 0x0]),
    (0x1F88, [0x1F08, 0x399, 0x0]),
    (0x1F89, [0x1F09, 0x399, 0x0]),
    (0x1F8A, [0x1F0A, 0x399, 0x0]),
    (0x1F8B, [0x1F0B, 0x399, 0x0]),
    (0x1F8C, [0x1F0C, 0x399, 0x0]),
    (0x1F8D, [0x1F0D, 0x399, 0x0]),
    (0x1F8E, [0x1F0E, 0x399, 0x0]),
    (0x1F8F, [0x1F0F, 0x399, 0x0]),
    (0x1F90, [0x1F28, 0x399, 0x0]),
    (0x1F91, [0x1F29, 0x399, 0x0]),
    (0x1F92, [0x1F2A, 0x399, 0x0]),
    (0x1F93, [0x1F2B, 0x399, 0x0]),
    (0x1F94, [0x1F2C, 0x399, 0x0]),
    (0x1F95, [0x1F2D, 0x399, 0x0]),
    (0x1F96, [0x1F2E, 0x399, 0x0]),
    (0x1F97, [0x1F2F, 0x399, 0x0]),
    (0x1F98, [0x1F28, 0x399, 0x0]),
    (0x1F99, [0x1F29, 0x399, 0x0]),
    (0x1F9A, [0x1F2A, 0x399, 0x0]),
    (0x1F9B, [0x1F2B, 0x399, 0x0]),
    (0x1F9C, [0x1F2C, 0x399, 0x0]),
    (0x1F9D, [0x1F2D, 0x399, 0x0]),
    (0x1F9E, [0x1F2E, 0x399, 0x0]),
    (0x1F9F, [0x1F2F, 0x399, 0x0]),
    (0x1FA0, [0x1F68, 0x399, 0x0]),
    (0x1FA1, [0x1F69, 0x399, 0x0]),
    (0x1FA2, [0x1F6A, 0x399, 0x0]),
    (0x1FA3, [0x1F6B, 0x399, 0x0]),
    (0x1FA4, [0x1F6C, 0x399, 0x0]),
    (0x1FA5, [0x1F6D, 0x399, 0x0]),
    (0x1FA6, [0x1F6E, 0x399, 0x0]),
    (0x1FA7, [0x1F6F, 0x399, 0x0]),
    (0x1FA8, [0x1F68, 0x399, 0x0]),
    (0x1FA9, [0x1F69, 0x399, 0x0]),
    (0x1FAA, [0x1F6A, 0x399, 0x0]),
    (0x1FAB, [0x1F6B, 0x399, 0x0]),
    (0x1FAC, [0x1F6C, 0x399, 0x0]),
    (0x1FAD, [0x1F6D, 0x399, 0x0]),
    (0x1FAE, [0x1F6E, 0x399, 0x0]),
    (0x1FAF, [0x1F6F, 0x399, 0x0]),
    (0x1FB2, [0x1FBA, 0x399, 0x0]),
    (0x1FB3, [0x391, 0x399, 0x0]),
    (0x1FB4, [0x386, 0x399, 0x0]),
    (0x1FB6, [0x391, 0x342, 0x0]),
    (0x1FB7, [0x391, 0x342, 0x399]),
    (0x1FBC, [0x391, 0x399, 0x0]),
    (0x1FC2, [0x1FCA, 0x399, 0x0]),
    (0x1FC3, [0x397, 0x399, 0x0]),
    (0x1FC4, [0x389, 0x399, 0x0]),
    (0x1FC6, [0x397, 0x342, 0x0]),
    (0x1FC7, [0x397, 0x342, 0x399]),
    (0x1FCC, [0x397, 0x399, 0x0]),
    (0x1FD2, [0x399, 0x308, 0x300]),
    (0x1FD3, [0x399, 0x308, 0x301]),
    (0x1FD6, [0x399, 0x342, 0x0]),
    (0x1FD7, [0x399, 0x308, 0x342]),
    (0x1FE2, [0x3A5, 0x308, 0x300]),
    (0x1FE3, [0x3A5, 0x308, 0x301]),
    (0x1FE4, [0x3A1, 0x313, 0x0]),
    (0x1FE6, [0x3A5, 0x342, 0x0]),
    (0x1FE7, [0x3A5, 0x308, 0x342]),
    (0x1FF2, [0x1FFA, 0x399, 0x0]),
    (0x1FF3, [0x3A9, 0x399, 0x0]),
    (0x1FF4, [0x38F, 0x399, 0x0]),
    (0x1FF6, [0x3A9, 0x342, 0x0]),
    (0x1FF7, [0x3A9, 0x342, 0x399]),
    (0x1FFC, [0x3A9, 0x399, 0x0]),
    (0xFB00, [0x46, 0x46, 0x0]),
    (0xFB01, [0x46, 0x49, 0x0]),
    (0xFB02, [0x46, 0x4C, 0x0]),
    (0xFB03, [0x46, 0x46, 0x49]),
    (0xFB04, [0x46, 0x46, 0x4C]),
    (0xFB05, [0x53, 0x54, 0x0]),
    (0xFB06, [0x53, 0x54, 0x0]),
    (0xFB13, [0x544, 0x546, 0x0]),
    (0xFB14, [0x544, 0x535, 0x0]),
    (0xFB15, [0x544, 0x53B, 0x0]),
    (0xFB16, [0x54E, 0x546, 0x0]),
    (0xFB17, [0x544, 0x53D, 0x0]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_character_upper_cases_as_core_does() {
        let mut mismatches = 0;
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let mut ours = String::new();
            push_upper(&mut ours, c);
            let core: String = c.to_uppercase().collect();
            if ours != core {
                mismatches += 1;
            }
        }
        assert_eq!(
            mismatches, 0,
            "the tables are out of date: write them out again with \
             `cargo test -p wasm-core --lib upper_case::tests::print_tables -- --ignored --nocapture`"
        );
    }

    /// Writes out RUNS and MULTI from this toolchain's `char::to_uppercase`.
    #[test]
    #[ignore]
    fn print_tables() {
        let mut runs: Vec<(u32, u32, u32, i64)> = Vec::new();
        let mut multi = Vec::new();
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let upper: Vec<char> = c.to_uppercase().collect();
            let cp = c as u32;
            if upper.len() > 1 {
                let units: Vec<u16> = upper
                    .iter()
                    .map(|&u| u16::try_from(u as u32).unwrap())
                    .collect();
                multi.push((u16::try_from(cp).unwrap(), units));
                continue;
            }
            if upper[0] == c {
                continue;
            }
            let delta = i64::from(upper[0] as u32) - i64::from(cp);
            match runs.last_mut() {
                // A second member fixes the run's step (1, or 2 for alternating pairs).
                Some((first, len, step, d))
                    if *d == delta && *len == 1 && matches!(cp - *first, 1 | 2) =>
                {
                    *step = cp - *first;
                    *len = 2;
                }
                Some((first, len, step, d))
                    if *d == delta && *len > 1 && *len < 255 && cp == *first + *len * *step =>
                {
                    *len += 1
                }
                _ => runs.push((cp, 1, 1, delta)),
            }
        }
        println!("const RUNS: [Run; {}] = [", runs.len());
        for (first, len, step, delta) in runs {
            println!("    run(0x{first:X}, {len}, {step}, {delta}),");
        }
        println!("];\n\nconst MULTI: [Multi; {}] = [", multi.len());
        for (from, to) in multi {
            let to: Vec<String> = (0..3)
                .map(|i| format!("0x{:X}", to.get(i).copied().unwrap_or(0)))
                .collect();
            println!("    (0x{from:X}, [{}]),", to.join(", "));
        }
        println!("];");
    }
}
