//! Numbers as decimal text, written as the standard library writes them (`{:.N}` and
//! `{}` for f64) for the values the app prints, without its float formatting code: the
//! page's module is about 7 KB (gzip) smaller once nothing in it formats an f64 with
//! `format!`. Property tests check the text against the standard library's.
//!
//! A finite f64 is exactly `m · 2^e`. Its value times `10^d`, rounded half to even, is the
//! integer whose digits `{:.d}` prints; `m · 10^d` fits 192 bits for `d <= 38`, and a
//! right shift by `-e` with the bits shifted out gives the rounding. The shortest text
//! that reads back as the same f64 (what `{}` prints) is the correctly rounded text with
//! the fewest decimals that `parse_number` reads back as the same number.

/// A 256-bit unsigned integer as (high, low) halves.
type Wide = (u128, u128);

/// `a · b` for a 64-bit and a 128-bit factor.
fn mul(a: u64, b: u128) -> Wide {
    let (a, b_lo, b_hi) = (u128::from(a), b & u128::from(u64::MAX), b >> 64);
    let (low, high) = (a * b_lo, a * b_hi);
    let (lo, carry) = low.overflowing_add(high << 64);
    ((high >> 64) + u128::from(carry), lo)
}

/// `v >> s` for `s < 256`.
fn shr((hi, lo): Wide, s: u32) -> Wide {
    match s {
        0 => (hi, lo),
        1..=127 => (hi >> s, (lo >> s) | (hi << (128 - s))),
        128..=255 => (0, hi >> (s - 128)),
        _ => (0, 0),
    }
}

/// `v mod 2^s`.
fn low_bits((hi, lo): Wide, s: u32) -> Wide {
    match s {
        0 => (0, 0),
        1..=127 => (0, lo & ((1u128 << s) - 1)),
        128 => (0, lo),
        129..=255 => (hi & ((1u128 << (s - 128)) - 1), lo),
        _ => (hi, lo),
    }
}

/// The decimal digits of `n`, through 64-bit formatting where it fits (128-bit
/// formatting is code of its own).
fn digits(n: u128) -> String {
    match u64::try_from(n) {
        Ok(small) => small.to_string(),
        Err(_) => {
            let (high, low) = (
                n / 10_000_000_000_000_000_000,
                n % 10_000_000_000_000_000_000,
            );
            format!("{}{:019}", digits(high), low as u64)
        }
    }
}

/// `|x| · 10^d` rounded to nearest, when it fits 128 bits: ties to even as `{:.d}` rounds
/// them, or up (`ties_up`) as `{}` does between two shortest texts equally near.
fn scaled(x: f64, d: u32, ties_up: bool) -> Option<u128> {
    let bits = x.abs().to_bits();
    let (exponent, fraction) = ((bits >> 52) as i32, bits & ((1u64 << 52) - 1));
    let (m, e) = if exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), exponent - 1075)
    };
    let product = mul(m, 10u128.checked_pow(d)?);
    if e >= 0 {
        let (hi, lo) = product;
        return (hi == 0 && lo.leading_zeros() >= e.unsigned_abs()).then(|| lo << e.unsigned_abs());
    }
    let s = e.unsigned_abs();
    if s > 192 {
        // The product is under 2^192, so under half of 2^s: it rounds to zero.
        return Some(0);
    }
    let (q_hi, q) = shr(product, s);
    if q_hi != 0 {
        return None;
    }
    let rest = low_bits(product, s);
    let half = if s > 128 {
        (1u128 << (s - 1 - 128), 0)
    } else {
        (0, 1u128 << (s - 1))
    };
    let up = rest > half || rest == half && (ties_up || q & 1 == 1);
    q.checked_add(u128::from(up))
}

/// `x` with `d` decimals, as `format!("{x:.d$}")` writes it.
pub fn fixed(x: f64, d: u32) -> String {
    with_decimals(x, d, false)
}

fn with_decimals(x: f64, d: u32, ties_up: bool) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    let Some(n) = scaled(x, d, ties_up) else {
        // Beyond 128 bits at this precision: only integers this large are printed.
        return digits(x.abs() as u128);
    };
    let mut text = digits(n);
    let d = d as usize;
    if text.len() <= d {
        text.insert_str(0, &"0".repeat(d + 1 - text.len()));
    }
    if d > 0 {
        text.insert(text.len() - d, '.');
    }
    if x.is_sign_negative() {
        text.insert(0, '-');
    }
    text
}

/// The shortest decimal that reads back as `x`, as `format!("{x}")` writes it, for
/// finite numbers from 1e-21 to 1e21 (others are written with 38 decimals or as integers).
pub fn shortest(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // From 2^53 up every f64 is an integer, and the shortest text is its first digits,
    // rounded, then zeros.
    if (9007199254740992.0..1e38).contains(&x.abs()) {
        let v = x.abs() as u128;
        let len = digits(v).len() as u32;
        for k in 1..=len {
            let p = 10u128.pow(len - k);
            let (q, r) = (v / p, v % p);
            let up = 2 * r >= p;
            let mut text = digits((q + u128::from(up)) * p);
            if x < 0.0 {
                text.insert(0, '-');
            }
            if parse_number(&text) == Some(x) {
                return text;
            }
        }
    }
    (0..=38)
        .map(|d| with_decimals(x, d, true))
        .find(|text| parse_number(text) == Some(x))
        .unwrap_or_else(|| fixed(x, 38))
}

/// Reads a decimal number ("1500", "0.15", "-2.5", "1e3") as the nearest f64, as the
/// standard library's parser does, for the numbers links and inputs carry: up to 19
/// significant digits (zeros after them are fine), with a power of ten up to 10^38 either
/// way. Longer or larger numbers, and "inf" or "NaN", are refused (`None`). The standard parser is not used because its
/// tables for any exponent cost the page's module about 14 KB of gzip.
///
/// The digits give an integer `w` and a power of ten `q`. For `q >= 0`, `w · 10^q` is
/// an exact `u128`, which `as f64` rounds to nearest. For `q < 0`, long division of `w` by
/// `10^-q` gives the quotient to 56 bits and whether anything remains; one more bit set
/// when something remains lets `as f64` round the truncated quotient exactly as the true
/// one, and a power of two scales it back without rounding.
pub fn parse_number(text: &str) -> Option<f64> {
    let text = text.trim();
    let (negative, text) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    // The digits as an integer `w` of at most 19 significant digits and a power of ten `q`;
    // zeros past the 19th digit only scale it (in the whole part) or drop (in the fraction).
    let mut w: u64 = 0;
    let mut significant = 0;
    let mut q = exponent;
    for (b, in_fraction) in whole
        .bytes()
        .map(|b| (b, false))
        .chain(fraction.bytes().map(|b| (b, true)))
    {
        let digit = u64::from(b.wrapping_sub(b'0'));
        if digit > 9 {
            return None;
        }
        if significant == 19 {
            if digit != 0 {
                return None;
            }
            if !in_fraction {
                q = q.checked_add(1)?;
            }
            continue;
        }
        if w > 0 || digit > 0 {
            significant += 1;
        }
        w = w * 10 + digit;
        if in_fraction {
            q = q.checked_sub(1)?;
        }
    }
    let ten_to = |n: u32| 10u128.checked_pow(n);
    let magnitude = if w == 0 {
        0.0
    } else if q >= 0 {
        u128::from(w).checked_mul(ten_to(q.unsigned_abs())?)? as f64
    } else {
        let d = ten_to(q.unsigned_abs())?;
        if d >= 1 << 127 {
            return None;
        }
        let (mut quotient, mut rest) = (u128::from(w) / d, u128::from(w) % d);
        let mut bits = 0;
        while quotient < 1 << 55 {
            rest <<= 1;
            quotient <<= 1;
            if rest >= d {
                rest -= d;
                quotient |= 1;
            }
            bits += 1;
        }
        let sticky = u128::from(rest != 0);
        // 2^-(bits + 1) as an f64, exactly (bits + 1 stays well inside the normal range).
        let scale = f64::from_bits((1023 - bits - 1) << 52);
        ((quotient << 1) | sticky) as f64 * scale
    };
    Some(if negative { -magnitude } else { magnitude })
}
