//! Stable sorts that compile the standard library's sort once instead of once per call.
//!
//! `slice::sort_by` is generic over the element and the comparison, so every call site gets its
//! own copy of the whole stable sort (driftsort with its small-sort networks: 3 to 5 kB of wasm
//! each). The page's worker had 53 such copies, 215 kB of its 3.7 MB and about 45 kB of its gzipped
//! size (docs/performance.md#bundle). These functions give the same order as `sort_by`,
//! `sort_by_key` and `sort`, stable included; built for wasm they sort the elements' positions
//! with one type-erased comparison (one compiled sort for every caller) and then move each
//! element once to its place ([`sort_by_positions`]); natively they are the standard sorts.
//!
//! ```
//! let mut calls = vec![("search", 2), ("fetch", 1), ("search", 1)];
//! toolscope_core::sort::sort_by_key(&mut calls, |call| call.0);
//! assert_eq!(calls, [("fetch", 1), ("search", 2), ("search", 1)]);
//! ```

use std::cmp::Ordering;

/// Sorts `items` by `compare`, keeping equal items in their order: the result of
/// `items.sort_by(compare)`. In wasm by [`sort_by_positions`]; natively, where code size does not
/// matter, by the standard library's sort itself, which sorts the items in place without the
/// positions' vector or an indirect call per comparison (the CLI's speed is unchanged).
pub fn sort_by<T>(items: &mut [T], compare: impl FnMut(&T, &T) -> Ordering) {
    #[cfg(target_arch = "wasm32")]
    sort_by_positions(items, compare);
    #[cfg(not(target_arch = "wasm32"))]
    items.sort_by(compare);
}

/// [`sort_by`] through one compiled sort for every caller: the positions `0..len` sorted by a
/// type-erased comparison, then each element moved once to its place.
pub fn sort_by_positions<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = {
        let items = &*items;
        sorted_positions(items.len(), &mut |a, b| compare(&items[a], &items[b]))
    };
    permute(items, order);
}

/// Sorts `items` by `key`, keeping items with equal keys in their order: the result of
/// `items.sort_by_key(key)`.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in ascending order, keeping equal items in their order: the result of
/// `items.sort()`.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// Collects `items` into a map or set by inserting them one by one: the same collection as
/// `collect()` (for a repeated key, the last value), without the copy of the stable sort that
/// `BTreeMap`'s and `serde_json::Map`'s `FromIterator` compile for every iterator type.
pub fn collect_by_insert<C: Default + Extend<T>, T>(items: impl IntoIterator<Item = T>) -> C {
    let mut collection = C::default();
    collection.extend(items);
    collection
}

/// The positions `0..len` in the order `compare` sorts them, ties by position: the one
/// instance of the standard library's stable sort that every function above shares.
#[inline(never)]
fn sorted_positions(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Moves `items[order[i]]` to position `i` for every `i`, following each cycle of the
/// permutation once (at most `len` swaps, no copies of `T`).
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..items.len() {
        let mut current = start;
        loop {
            let source = order[current];
            // Done: later visits of this position find it in place.
            order[current] = current;
            if source == start {
                break;
            }
            items.swap(current, source);
            current = source;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Natively `sort_by` is the standard sort itself: these hold the positions' sort, which the
    // page's wasm uses, to its order.
    proptest! {
        /// Same order as the standard library's stable sort, ties included: pairs sorted by
        /// their first half only, so equal keys with different second halves show any reordering.
        #[test]
        fn sort_by_key_orders_as_the_standard_stable_sort(
            items in prop::collection::vec((0u8..6, any::<u32>()), 0..200),
        ) {
            let mut expected = items.clone();
            expected.sort_by_key(|item| item.0);
            let mut sorted = items;
            sort_by_positions(&mut sorted, |a, b| a.0.cmp(&b.0));
            prop_assert_eq!(sorted, expected);
        }

        #[test]
        fn sort_by_a_two_key_order_is_the_standard_stable_sort(
            items in prop::collection::vec((0u8..4, ".{0,3}"), 0..100),
        ) {
            let mut expected = items.clone();
            expected.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.len().cmp(&b.1.len())));
            let mut sorted = items;
            sort_by_positions(&mut sorted, |a, b| {
                b.0.cmp(&a.0).then_with(|| a.1.len().cmp(&b.1.len()))
            });
            prop_assert_eq!(sorted, expected);
        }

        #[test]
        fn collect_by_insert_is_collect(
            pairs in prop::collection::vec((".{0,2}", any::<u8>()), 0..50),
        ) {
            let expected: std::collections::BTreeMap<String, u8> = pairs.iter().cloned().collect();
            let collected: std::collections::BTreeMap<String, u8> = collect_by_insert(pairs.iter().cloned());
            prop_assert_eq!(collected, expected);
            let expected: serde_json::Map<String, serde_json::Value> =
                pairs.iter().map(|(key, value)| (key.clone(), (*value).into())).collect();
            let collected: serde_json::Map<String, serde_json::Value> =
                collect_by_insert(pairs.iter().map(|(key, value)| (key.clone(), (*value).into())));
            prop_assert_eq!(collected, expected);
        }

        #[test]
        fn sort_is_the_standard_sort(items in prop::collection::vec(".{0,4}", 0..100)) {
            let mut expected = items.clone();
            expected.sort();
            let mut sorted = items;
            sort_by_positions(&mut sorted, String::cmp);
            prop_assert_eq!(sorted, expected);
        }
    }
}
