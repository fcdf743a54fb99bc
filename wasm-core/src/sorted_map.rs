//! `SortedMap`: a map kept as a `Vec` of pairs sorted by key, for the rules' small maps (a form's
//! field messages, a text's languages, a survey's answers, a table's filters). It behaves like the
//! `BTreeMap` it replaces where the rules and the API use it: iteration in key order, one value per
//! key (inserting a key again replaces its value), and the same serde shape (a map in key order;
//! in JSON an object, in JS a plain object). Its code is a binary search and `Vec::insert`, a
//! fraction of `BTreeMap`'s node code in the wasm packages (issue 22). Lookups and inserts are
//! O(log n) and O(n); the maps it holds have a few dozen entries at most.

use std::borrow::Borrow;
use std::fmt;

#[derive(Clone, PartialEq, Eq)]
pub struct SortedMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap(Vec::new())
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    pub const fn new() -> Self {
        SortedMap(Vec::new())
    }

    /// `Ok(index)` of `key`, or `Err(index)` where it would go.
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.0.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// Sets `key` to `value`; returns the value it had.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        // Keys often arrive in order (a deserialized map, a sorted source): append without a search.
        if self.0.last().is_none_or(|(last, _)| *last < key) {
            self.0.push((key, value));
            return None;
        }
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.0[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }

    /// The place of `key`, to read or fill in.
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        let at = self.find(&key);
        Entry { map: self, key, at }
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.0.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K, V> SortedMap<K, V> {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The entries in key order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = (&K, &mut V)> {
        self.0.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> {
        self.0.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut V> {
        self.0.iter_mut().map(|(_, v)| v)
    }

    pub fn into_values(self) -> impl DoubleEndedIterator<Item = V> {
        self.0.into_iter().map(|(_, v)| v)
    }

    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.0.first().map(|(k, v)| (k, v))
    }
}

/// [`SortedMap::iter`]'s iterator.
pub type Iter<'a, K, V> =
    std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

/// A key's place in a [`SortedMap`], as `BTreeMap::entry` gives it.
pub struct Entry<'a, K, V> {
    map: &'a mut SortedMap<K, V>,
    key: K,
    at: Result<usize, usize>,
}

impl<'a, K, V> Entry<'a, K, V> {
    pub fn or_insert_with(self, make: impl FnOnce() -> V) -> &'a mut V {
        let i = match self.at {
            Ok(i) => i,
            Err(i) => {
                self.map.0.insert(i, (self.key, make()));
                i
            }
        };
        &mut self.map.0[i].1
    }

    pub fn or_insert(self, value: V) -> &'a mut V {
        self.or_insert_with(|| value)
    }

    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }
}

/// `map[key]`, as `BTreeMap`'s: panics when `key` is absent.
impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for SortedMap<K, V> {
    type Output = V;
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry found for key")
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    /// As `BTreeMap`: a key given twice keeps the last value.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut map = SortedMap::new();
        map.extend(iter);
        map
    }
}

impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SortedMap<K, V> {
    fn from(pairs: [(K, V); N]) -> Self {
        pairs.into_iter().collect()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K: serde::Serialize, V: serde::Serialize> serde::Serialize for SortedMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de, K, V> serde::Deserialize<'de> for SortedMap<K, V>
where
    K: serde::Deserialize<'de> + Ord,
    V: serde::Deserialize<'de>,
{
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K, V> serde::de::Visitor<'de> for Visit<K, V>
        where
            K: serde::Deserialize<'de> + Ord,
            V: serde::Deserialize<'de>,
        {
            type Value = SortedMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut access: A,
            ) -> Result<Self::Value, A::Error> {
                let mut map = SortedMap::new();
                while let Some((k, v)) = access.next_entry()? {
                    map.insert(k, v);
                }
                Ok(map)
            }
        }
        deserializer.deserialize_map(Visit(std::marker::PhantomData))
    }
}

/// The same JSON Schema as the `BTreeMap` it replaces (the API's OpenAPI document is unchanged).
#[cfg(feature = "schema")]
impl<K: schemars::JsonSchema, V: schemars::JsonSchema> schemars::JsonSchema for SortedMap<K, V> {
    fn inline_schema() -> bool {
        <std::collections::BTreeMap<K, V> as schemars::JsonSchema>::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <std::collections::BTreeMap<K, V> as schemars::JsonSchema>::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        <std::collections::BTreeMap<K, V> as schemars::JsonSchema>::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <std::collections::BTreeMap<K, V> as schemars::JsonSchema>::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// The same operations on a `SortedMap` and a `BTreeMap` give the same entries in the same
    /// order, and the same JSON.
    #[test]
    fn behaves_as_btreemap() {
        let keys = ["m", "b", "z", "a", "m", "", "b", "é", "Z", "aa"];
        let mut ours = SortedMap::new();
        let mut theirs = BTreeMap::new();
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(
                ours.insert(k.to_string(), i),
                theirs.insert(k.to_string(), i)
            );
            assert_eq!(
                ours.iter().collect::<Vec<_>>(),
                theirs.iter().collect::<Vec<_>>()
            );
        }
        *ours.entry("q".into()).or_default() += 5;
        *theirs.entry("q".into()).or_default() += 5;
        *ours.entry("q".into()).or_insert(1) += 1;
        *theirs.entry("q".into()).or_insert(1) += 1;
        assert_eq!(ours.get("q"), theirs.get("q"));
        assert_eq!(ours.get("nope"), None);
        assert_eq!(ours.remove("m"), theirs.remove("m"));
        assert_eq!(ours.remove("m"), None);
        assert!(ours.contains_key("Z") && !ours.contains_key("m"));
        assert_eq!(ours.len(), theirs.len());
        assert_eq!(
            serde_json::to_string(&ours).unwrap(),
            serde_json::to_string(&theirs).unwrap()
        );
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
        let collected: SortedMap<_, _> = [("b", 1), ("a", 2), ("b", 3)].into_iter().collect();
        let btree: BTreeMap<_, _> = [("b", 1), ("a", 2), ("b", 3)].into_iter().collect();
        assert_eq!(
            collected.into_iter().collect::<Vec<_>>(),
            btree.into_iter().collect::<Vec<_>>()
        );
    }

    #[test]
    fn deserializes_as_btreemap() {
        let json = r#"{"b":"1","a":"2","b":"3","c":"4"}"#;
        let ours: SortedMap<String, String> = serde_json::from_str(json).unwrap();
        let theirs: BTreeMap<String, String> = serde_json::from_str(json).unwrap();
        assert_eq!(
            ours.iter().collect::<Vec<_>>(),
            theirs.iter().collect::<Vec<_>>()
        );
        assert!(serde_json::from_str::<SortedMap<String, String>>("[1]").is_err());
    }

    #[cfg(feature = "schema")]
    #[test]
    fn same_json_schema_as_btreemap() {
        assert_eq!(
            schemars::schema_for!(SortedMap<String, Vec<String>>),
            schemars::schema_for!(BTreeMap<String, Vec<String>>)
        );
    }
}
