//! Writes out upper_case.rs's RUNS and MULTI tables from this toolchain's `char::to_uppercase`
//! (run it when upper_case's test says the tables are out of date, and paste its output there).

fn main() {
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
