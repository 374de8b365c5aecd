//! Decimal text as the standard library writes it, without its float formatting code.

use catalog::decimal::{fixed, shortest};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    #[test]
    fn fixed_writes_what_the_standard_library_writes(
        mantissa in -1e6f64..1e6,
        exponent in -12i32..10,
        d in 0u32..7,
    ) {
        let x = mantissa * 10f64.powi(exponent);
        let d = d as usize;
        prop_assert_eq!(fixed(x, d as u32), format!("{x:.d$}"), "{:e}", x);
    }

    #[test]
    fn shortest_writes_what_the_standard_library_writes(mantissa in -1e6f64..1e6, exponent in -20i32..14) {
        let x = mantissa * 10f64.powi(exponent);
        // The range `shortest` promises (a mantissa near zero can fall below it).
        if x == 0.0 || (1e-21..1e21).contains(&x.abs()) {
            prop_assert_eq!(shortest(x), format!("{x}"), "{:e}", x);
        }
    }

    #[test]
    fn shortest_writes_any_f64_of_its_range_as_the_standard_library_does(bits in any::<u64>()) {
        let x = f64::from_bits(bits);
        if x.is_finite() && (x == 0.0 || (1e-21..1e21).contains(&x.abs())) {
            prop_assert_eq!(shortest(x), format!("{x}"), "{:e}", x);
        }
    }
}

#[test]
fn ties_round_to_even_as_the_standard_library_does() {
    for (x, d) in [
        (0.5, 0),
        (1.5, 0),
        (2.5, 0),
        (0.125, 2),
        (0.375, 2),
        (-0.0001, 2),
        (1e21, 0),
        (5e-324, 3),
    ] {
        assert_eq!(fixed(x, d), format!("{x:.*}", d as usize), "{x:e} {d}");
    }
    for x in [
        0.1,
        0.2 + 0.1,
        1.0 / 3.0,
        123456.789,
        1e-7,
        2.5e-12,
        -0.0,
        0.0,
        9007199254740993.0,
    ] {
        assert_eq!(shortest(x), format!("{x}"), "{x:e}");
    }
}
