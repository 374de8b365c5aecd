//! One stable sort shared by its callers. Each `sort_by` call with its own closure
//! compiles its own copy of the standard library's sort, about half a dozen functions;
//! through `sort_by` here the callers share one copy, which sorts the items' positions
//! with a comparison it calls through a pointer. The views module's sorts go through it
//! (its WebAssembly 5.5 KB gzip smaller). The ranking's own sort (`rank::evaluate`) and the
//! form's keep the standard library's: in the page's module they are the only sorts, and
//! the shared one measured 959 B larger there.

use std::cmp::Ordering;

/// Sorts `items` by `cmp`, keeping equal items in their order (as `slice::sort_by`).
pub fn sort_by<T>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    sort_positions(&mut order, &|a, b| cmp(&items[a], &items[b]));
    // Where each item goes, then each one swapped there along its cycle.
    let mut to = vec![0; items.len()];
    for (place, &from) in order.iter().enumerate() {
        to[from] = place;
    }
    for i in 0..items.len() {
        while to[i] != i {
            let j = to[i];
            items.swap(i, j);
            to.swap(i, j);
        }
    }
}

/// Sorts `items` by the key `key` gives each, keeping equal keys in their order.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// The one instance of the standard library's sort.
#[inline(never)]
fn sort_positions(order: &mut [usize], cmp: &dyn Fn(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| cmp(a, b));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sorts_as_the_standard_library_does(v in proptest::collection::vec((0u8..6, any::<u16>()), 0..80)) {
            // Sorted by the first field only, so equal keys show whether the order holds.
            let mut ours = v.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = v.clone();
            std.sort_by_key(|a| a.0);
            prop_assert_eq!(&ours, &std);
            let mut keyed = v.clone();
            sort_by_key(&mut keyed, |x| std::cmp::Reverse(x.0));
            let mut std_keyed = v;
            std_keyed.sort_by_key(|x| std::cmp::Reverse(x.0));
            prop_assert_eq!(keyed, std_keyed);
        }
    }
}
