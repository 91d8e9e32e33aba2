//! **The bound on one schema check**: how much work validating a call's arguments can take,
//! decided before validating them, so that no call hangs the page (one thread, no way to
//! interrupt it) or the CLI.
//!
//! Without references, the validator meets each schema node at most once per value of the
//! arguments: its work is bounded by the sizes of the schema and the arguments. References break
//! that: the validator follows every `$ref` it meets and caches results only for recursive
//! schemas, so 30 `$defs` that each refer twice to the next (`"l0": {"anyOf": [{"$ref":
//! "#/$defs/l1"}, {"$ref": "#/$defs/l1"}]}`, ...) make 2^30 checks of one number: 9 s to decide
//! it fails, and listing why ran out of memory. A recursive schema does the same through the
//! arguments, when each level of nesting is checked twice over.
//!
//! So a schema with references ([`SchemaBound::for_schema`]) is walked together with each call's
//! arguments first ([`SchemaBound::assess`]), following references exactly as jsonschema resolves
//! them (the same `referencing` crate, base URI and draft). The walk counts the (schema node,
//! argument value) pairs the validator can meet, the **checks**: every applicator is followed
//! (all branches of `anyOf`, both `then` and `else`, `additionalProperties` over every
//! property), so the count is an upper bound. Counts are memoised per pair, so that counting
//! 2^30 checks takes a few steps per `$defs` entry, and the walk stops as soon as the count
//! passes [`CHECK_BUDGET`], so its own work and memory are bounded by that budget too.
//!
//! A call is **undecidable** (a `schema_undecidable` problem, neither valid nor invalid) when its
//! checks exceed the budget, when they nest deeper than [`MAX_NESTING`], or when the schema loops
//! back to itself at the same value (`"A": {"allOf": [{"$ref": "#/$defs/B"}]}`, `"B": {"anyOf":
//! [{"$ref": "#/$defs/A"}]}`): JSON Schema leaves such loops undefined, Python's jsonschema
//! recurses until it fails, and jsonschema's own loop guard cuts them late: six schemas that
//! each take all six in an `allOf` ran out of memory while listing errors. A `$ref` to the very
//! schema holding it is no loop: jsonschema skips it, and so does the walk.
//!
//! Listing errors costs more than deciding validity (jsonschema re-checks each `anyOf` it
//! explains), so the walk also bounds that work, the **listing**: a call that fails within the
//! budget but whose errors would take more than [`CHECK_BUDGET`] steps to list gets one schema
//! problem saying so.

use std::rc::Rc;

use referencing::{Draft, List, Registry, Resolver, Uri};
use serde_json::Value;

use crate::hashing::{HashMap, HashMapExt};
/// How many (schema node, argument value) checks one call may need before it is undecidable;
/// also the bound on the steps of listing a failing call's errors.
///
/// jsonschema decides validity at about 1.5 ns a check and lists errors at about 20 ns a step
/// (measured on the doubling `$defs` above: 4.2 million checks in 6 ms, 166 million listing
/// steps in 3.6 s), so at this budget one call takes a few milliseconds at worst, natively, and
/// a few times that in the page. Ordinary calls need tens to thousands of checks: only a
/// reference structure that multiplies the work reaches the budget, or arguments of hundreds of
/// thousands of values.
pub const CHECK_BUDGET: u64 = 1_000_000;

/// How deeply checks may nest (schema nodes on one path, through references and the arguments'
/// nesting) before a call is undecidable.
///
/// jsonschema recurses once or more per level: a chain of 60,000 `$ref`s overflows an 8 MB
/// native stack while listing errors, and the page has about 1 MB. Arguments nest at most 128
/// levels ([`crate::json::MAX_DEPTH`]) and a recursive schema takes a few nodes per level
/// (`properties`, `anyOf`, `$ref`), so legitimate checks stay far below this.
pub const MAX_NESTING: usize = 1_024;

/// Where jsonschema bases a schema without `$id`; the walk must resolve from the same place.
const DEFAULT_BASE_URI: &str = "json-schema:///";

/// What the walk decided about one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assessment {
    /// The validator's work is bounded: validate the call.
    Within {
        /// Whether listing the call's errors, should it fail, also stays within the budget.
        can_list_errors: bool,
    },
    /// The call needs more than [`CHECK_BUDGET`] checks.
    TooManyChecks,
    /// The call's checks nest deeper than [`MAX_NESTING`].
    TooDeep,
    /// The schema refers back to itself without descending into the arguments.
    Loop {
        /// JSON pointer of the argument value the loop is at ("" for the arguments themselves).
        pointer: String,
    },
}

/// A tool schema with references, ready to bound the work of checking each call against it.
pub struct SchemaBound {
    /// The schema as jsonschema's registry holds it: references resolve inside this copy.
    registry: Registry<'static>,
    base_uri: Uri<String>,
    draft: Draft,
    /// Whether `$dynamicRef` or `$recursiveRef` appear: then where a reference leads depends on
    /// the path taken to it, and the memo must tell paths apart.
    is_dynamic: bool,
}

impl SchemaBound {
    /// The bound for `schema` read as `draft`, or None when it has no reference anywhere (its
    /// checks are then bounded by its size and the arguments'). An error when its references
    /// cannot be indexed, which jsonschema would have refused too.
    pub fn for_schema(schema: &Value, draft: Draft) -> Result<Option<SchemaBound>, String> {
        let mut references = References::default();
        references.find(schema);
        if !references.any {
            return Ok(None);
        }
        let resource = draft.create_resource_ref(schema);
        let id = resource.id();
        let base_uri = referencing::uri::from_str(id.unwrap_or(DEFAULT_BASE_URI))
            .map_err(|error| error.to_string())?;
        let registry = Registry::new()
            .draft(draft)
            .retrieve_known_draft_meta_schemas(false)
            .add(base_uri.as_str(), schema.clone())
            .and_then(|builder| builder.prepare())
            .map_err(|error| error.to_string())?;
        // `assess` starts here; jsonschema would not have compiled a schema it cannot find.
        let root = registry.resolver(base_uri.clone()).lookup("").map(|_| ());
        root.map_err(|error| error.to_string())?;
        Ok(Some(SchemaBound {
            registry,
            base_uri,
            draft,
            is_dynamic: references.any_dynamic,
        }))
    }

    /// Walks the schema with `args` and decides whether validating them is bounded.
    pub fn assess(&self, args: &Value) -> Assessment {
        let resolver = self.registry.resolver(self.base_uri.clone());
        let Ok(root) = resolver.lookup("") else {
            // `for_schema` found it; should it not, leaving the call unchecked is the safe side.
            return Assessment::TooManyChecks;
        };
        let root = root.contents();
        let mut walk = Walk {
            is_dynamic: self.is_dynamic,
            memo: HashMap::new(),
            targets: HashMap::new(),
            visits: 0,
            held: 0,
            stack: Vec::new(),
        };
        let resolver = Rc::new(resolver);
        let root = in_place(root, &resolver, self.draft, Instance::Value(args), None);
        match walk.run(root) {
            Ok(cost) => Assessment::Within {
                can_list_errors: cost.listing <= CHECK_BUDGET,
            },
            Err(Stop::TooManyChecks) => Assessment::TooManyChecks,
            Err(Stop::TooDeep) => Assessment::TooDeep,
            Err(Stop::Loop(pointer)) => Assessment::Loop { pointer },
        }
    }
}

/// Which reference keywords a schema holds.
#[derive(Default)]
struct References {
    any: bool,
    any_dynamic: bool,
}

impl References {
    fn find(&mut self, value: &Value) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    match key.as_str() {
                        "$ref" => self.any = true,
                        "$dynamicRef" | "$recursiveRef" => {
                            self.any = true;
                            self.any_dynamic = true;
                        }
                        _ => {}
                    }
                    self.find(child);
                }
            }
            Value::Array(items) => items.iter().for_each(|item| self.find(item)),
            _ => {}
        }
    }
}

/// What one (schema node, argument value) pair costs, its own check included.
#[derive(Debug, Clone, Copy)]
struct Cost {
    /// Pairs the validator may visit from here to decide validity.
    checks: u64,
    /// Steps it may take to list the errors from here: each node's errors re-check its
    /// subtree at most once more.
    listing: u64,
    /// Pairs on the longest path from here.
    height: usize,
}

impl Cost {
    const LEAF: Cost = Cost {
        checks: 1,
        listing: 1,
        height: 1,
    };
}

/// Why the walk stopped early.
enum Stop {
    TooManyChecks,
    TooDeep,
    Loop(String),
}

/// What a schema node is checked against: an argument value, or a property name (which
/// `propertyNames` checks as a string).
#[derive(Clone, Copy)]
enum Instance<'i> {
    Value(&'i Value),
    Name,
}

impl Instance<'_> {
    /// Identity for the memo. Strings, numbers, booleans, null and names only meet the keywords
    /// that apply to every value, so they cost the same and share one identity.
    fn identity(self) -> usize {
        match self {
            Instance::Value(value @ (Value::Object(_) | Value::Array(_))) => {
                std::ptr::from_ref(value) as usize
            }
            _ => 0,
        }
    }
}

/// One step of the path to an argument value.
#[derive(Clone, Copy)]
enum Segment<'i> {
    Name(&'i str),
    Index(usize),
}

/// A (schema node, value) pair to walk.
struct Pair<'r, 'i> {
    schema: &'r Value,
    /// Resolves the references written in `schema`.
    resolver: Rc<Resolver<'r>>,
    draft: Draft,
    instance: Instance<'i>,
    /// The step from the parent pair's value to this one's, None for the same value.
    segment: Option<Segment<'i>>,
}

/// A pair being walked: what is left of its children and what the others cost.
struct Frame<'r, 'i> {
    key: MemoKey,
    segment: Option<Segment<'i>>,
    pending: Vec<Pair<'r, 'i>>,
    sum: Sum,
}

/// Memo key: schema node, argument value, and for dynamic references the dynamic scope.
type MemoKey = (usize, usize, Option<List<Uri<String>>>);

/// A pair's place in the memo.
enum Memo {
    /// Being walked: meeting the pair again is a loop at that value.
    Walking,
    Done(Cost),
}

/// Where a reference leads: the schema, the resolver inside it, its draft.
type Target<'r> = (&'r Value, Rc<Resolver<'r>>, Draft);

/// The walk of one call. It keeps its own stack rather than recursing, so that a schema nested
/// [`MAX_NESTING`] deep costs heap, not the thread's stack.
struct Walk<'r, 'i> {
    is_dynamic: bool,
    memo: HashMap<MemoKey, Memo>,
    /// Where the `$ref` (false) or `$dynamicRef` (true) of a schema node leads, None where it
    /// leads nowhere: without dynamic references the same for every value, so resolved once.
    targets: HashMap<(usize, bool), Option<Target<'r>>>,
    /// Every pair met, memo hits included; each stands for at least one check, so this stays
    /// within the budget whenever the count does, and bounds the walk's own work.
    visits: u64,
    /// Pairs waiting in the frames: each will cost at least one check, so they never number more
    /// than the budget, which bounds the walk's memory.
    held: u64,
    stack: Vec<Frame<'r, 'i>>,
}

/// What meeting a pair gives: its cost at once, or a frame to walk.
enum Met<'r, 'i> {
    Cost(Cost),
    Frame(Frame<'r, 'i>),
}

impl<'r, 'i> Walk<'r, 'i> {
    /// The cost of `root`.
    fn run(&mut self, root: Pair<'r, 'i>) -> Result<Cost, Stop> {
        let mut done = match self.meet(root)? {
            Met::Cost(cost) => return Ok(cost),
            Met::Frame(frame) => {
                self.stack.push(frame);
                Cost::LEAF
            }
        };
        while let Some(frame) = self.stack.last_mut() {
            if let Some(pair) = frame.pending.pop() {
                self.held -= 1;
                match self.meet(pair)? {
                    Met::Cost(cost) => self.add_to_top(cost)?,
                    Met::Frame(frame) => self.stack.push(frame),
                }
            } else if let Some(frame) = self.stack.pop() {
                done = frame.sum.cost();
                self.memo.insert(frame.key, Memo::Done(done));
                self.add_to_top(done)?;
            }
        }
        // The last frame done is the root's.
        Ok(done)
    }

    fn add_to_top(&mut self, cost: Cost) -> Result<(), Stop> {
        match self.stack.last_mut() {
            Some(frame) => frame.sum.add(cost),
            None => Ok(()),
        }
    }

    /// A pair's cost when it is already known (or needs no walk), else its frame.
    fn meet(&mut self, pair: Pair<'r, 'i>) -> Result<Met<'r, 'i>, Stop> {
        self.visits += 1;
        if self.visits > 2 * CHECK_BUDGET {
            return Err(Stop::TooManyChecks);
        }
        let Value::Object(map) = pair.schema else {
            return Ok(Met::Cost(Cost::LEAF));
        };
        // Most pairs are a plain schema and a plain value: nothing to remember.
        if pair.instance.identity() == 0 && !applies_to_itself(map) {
            return Ok(Met::Cost(Cost::LEAF));
        }
        let key = (
            std::ptr::from_ref(pair.schema) as usize,
            pair.instance.identity(),
            self.is_dynamic.then(|| pair.resolver.dynamic_scope()),
        );
        let depth = self.stack.len();
        match self.memo.get(&key) {
            Some(Memo::Done(cost)) if depth + cost.height > MAX_NESTING => {
                return Err(Stop::TooDeep)
            }
            Some(Memo::Done(cost)) => return Ok(Met::Cost(*cost)),
            Some(Memo::Walking) => return Err(Stop::Loop(self.pointer(pair.segment))),
            None => {}
        }
        if depth >= MAX_NESTING {
            return Err(Stop::TooDeep);
        }
        self.memo.insert(key.clone(), Memo::Walking);
        let mut frame = Frame {
            key,
            segment: pair.segment,
            pending: Vec::new(),
            sum: Sum::default(),
        };
        // Drafts 4 to 7 ignore every keyword beside `$ref`.
        match map.get("$ref") {
            Some(Value::String(reference)) if is_draft_before_2019(pair.draft) => {
                self.reference(map, reference, false, &pair, &mut frame.pending);
            }
            _ => {
                let room = CHECK_BUDGET.saturating_sub(self.held);
                for (keyword, subschema) in map {
                    self.keyword(map, keyword, subschema, &pair, &mut frame, room)?;
                }
            }
        }
        self.held += frame.pending.len() as u64;
        Ok(Met::Frame(frame))
    }

    /// The pairs one keyword of `map` applies to `pair`'s value (the value itself, its items,
    /// property values or names), left in `frame` to walk; those that need no walk are added to
    /// its sum at once. Keywords that apply no subschema add none. Each pair costs at least one
    /// check, so more than `room` of them are over the budget before they are held.
    fn keyword(
        &mut self,
        map: &'r serde_json::Map<String, Value>,
        keyword: &str,
        subschema: &'r Value,
        pair: &Pair<'r, 'i>,
        frame: &mut Frame<'r, 'i>,
        room: u64,
    ) -> Result<(), Stop> {
        let Frame { pending, sum, .. } = frame;
        let draft = pair.draft;
        let object = match pair.instance {
            Instance::Value(Value::Object(object)) => Some(object),
            _ => None,
        };
        let items = match pair.instance {
            Instance::Value(Value::Array(items)) => items.as_slice(),
            _ => &[],
        };
        // `subschema` applied to `instance`, reached by `segment` from `pair`'s value.
        let mut apply = |subschema: &'r Value, instance: Instance<'i>, segment| {
            // Most pairs are a plain schema and a plain value.
            let is_plain = !subschema.as_object().is_some_and(applies_to_itself);
            if instance.identity() == 0 && is_plain {
                return sum.add(Cost::LEAF);
            }
            if pending.len() as u64 >= room {
                return Err(Stop::TooManyChecks);
            }
            let subschema = in_place(subschema, &pair.resolver, draft, instance, segment);
            pending.push(subschema);
            Ok(())
        };
        match (keyword, subschema) {
            ("$ref", Value::String(reference)) => {
                self.reference(map, reference, false, pair, pending);
            }
            ("$dynamicRef", Value::String(reference)) if is_draft_2020_or_later(draft) => {
                self.reference(map, reference, true, pair, pending);
            }
            ("$recursiveRef", _) if draft == Draft::Draft201909 => {
                let target = match pair.resolver.lookup_recursive_ref() {
                    Ok(resolved) => {
                        let (target, resolver, draft) = resolved.into_inner();
                        (target, Rc::new(resolver), draft)
                    }
                    Err(_) => accept_all(&pair.resolver),
                };
                pending.push(at_target(target, pair));
            }
            ("allOf" | "anyOf" | "oneOf", Value::Array(branches)) => {
                for branch in branches {
                    apply(branch, pair.instance, None)?;
                }
            }
            ("not", _) => apply(subschema, pair.instance, None)?,
            ("if", _) if has_if(draft) => apply(subschema, pair.instance, None)?,
            ("then" | "else", _) if has_if(draft) && map.contains_key("if") => {
                apply(subschema, pair.instance, None)?
            }
            ("dependencies", Value::Object(dependencies))
            | ("dependentSchemas", Value::Object(dependencies))
                if keyword == "dependencies" || !is_draft_before_2019(draft) =>
            {
                for (property, dependency) in dependencies {
                    // Each applies only when its property is present; the list form of
                    // `dependencies` names properties and applies no schema.
                    let is_present = object.is_some_and(|object| object.contains_key(property));
                    if is_present && !dependency.is_array() {
                        apply(dependency, pair.instance, None)?;
                    }
                }
            }
            ("properties", Value::Object(properties)) => {
                for (name, value) in object.into_iter().flatten() {
                    if let Some(property) = properties.get(name) {
                        apply(property, Instance::Value(value), Some(Segment::Name(name)))?;
                    }
                }
            }
            // Which properties these apply to depends on the names and the other keywords;
            // every property is an upper bound.
            ("patternProperties", Value::Object(patterns)) => {
                for pattern in patterns.values() {
                    for (name, value) in object.into_iter().flatten() {
                        apply(pattern, Instance::Value(value), Some(Segment::Name(name)))?;
                    }
                }
            }
            ("additionalProperties" | "unevaluatedProperties", _) => {
                for (name, value) in object.into_iter().flatten() {
                    apply(subschema, Instance::Value(value), Some(Segment::Name(name)))?;
                }
            }
            ("propertyNames", _) => {
                for _ in object.into_iter().flatten() {
                    apply(subschema, Instance::Name, None)?;
                }
            }
            // The array forms apply their j-th schema to the j-th item.
            ("items" | "prefixItems", Value::Array(schemas)) => {
                for (index, (schema, item)) in schemas.iter().zip(items).enumerate() {
                    apply(schema, Instance::Value(item), Some(Segment::Index(index)))?;
                }
            }
            // Which items the last three apply to depends on the other keywords; every item is
            // an upper bound.
            ("items" | "additionalItems" | "unevaluatedItems" | "contains", _) => {
                for (index, item) in items.iter().enumerate() {
                    apply(
                        subschema,
                        Instance::Value(item),
                        Some(Segment::Index(index)),
                    )?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The pair a `$ref` or `$dynamicRef` of `map` leads to, where jsonschema follows it.
    fn reference(
        &mut self,
        map: &'r serde_json::Map<String, Value>,
        reference: &str,
        is_dynamic_ref: bool,
        pair: &Pair<'r, 'i>,
        pending: &mut Vec<Pair<'r, 'i>>,
    ) {
        let target = if self.is_dynamic {
            resolve(map, reference, &pair.resolver)
        } else {
            let key = (std::ptr::from_ref(map) as usize, is_dynamic_ref);
            self.targets
                .entry(key)
                .or_insert_with(|| resolve(map, reference, &pair.resolver))
                .clone()
        };
        if let Some(target) = target {
            pending.push(at_target(target, pair));
        }
    }

    /// The JSON pointer of the value a pair reached by `segment` from the top frame's value.
    fn pointer(&self, segment: Option<Segment<'i>>) -> String {
        let segments = self.stack.iter().map(|frame| frame.segment);
        segments
            .chain([segment])
            .flatten()
            .map(|segment| match segment {
                Segment::Name(name) => format!("/{}", name.replace('~', "~0").replace('/', "~1")),
                Segment::Index(index) => format!("/{index}"),
            })
            .collect()
    }
}

/// A subschema written in place: an `$id` in it moves the base its references resolve from,
/// and a `$schema` in it changes the draft, as when jsonschema compiles it.
fn in_place<'r, 'i>(
    subschema: &'r Value,
    resolver: &Rc<Resolver<'r>>,
    draft: Draft,
    instance: Instance<'i>,
    segment: Option<Segment<'i>>,
) -> Pair<'r, 'i> {
    let draft = draft.detect(subschema);
    let resource = draft.create_resource_ref(subschema);
    let resolver = match resource.id().map(|_| resolver.in_subresource(resource)) {
        Some(Ok(inner)) => Rc::new(inner),
        _ => Rc::clone(resolver),
    };
    Pair {
        schema: subschema,
        resolver,
        draft,
        instance,
        segment,
    }
}

/// A reference's target, applied to the value of the pair holding the reference.
fn at_target<'r, 'i>((schema, resolver, draft): Target<'r>, pair: &Pair<'r, 'i>) -> Pair<'r, 'i> {
    Pair {
        schema,
        resolver,
        draft,
        instance: pair.instance,
        segment: None,
    }
}

/// The schema `true`, which checks nothing more.
static ACCEPT_ALL: Value = Value::Bool(true);

/// What a reference that cannot be resolved leads to: it would not have compiled, so it is
/// counted as one check.
fn accept_all<'r>(resolver: &Rc<Resolver<'r>>) -> Target<'r> {
    (&ACCEPT_ALL, Rc::clone(resolver), Draft::default())
}

/// Where `reference`, written in `map`, leads; None where jsonschema does not follow it: an
/// empty reference, or one to `map` itself (both would only repeat the same checks on the same
/// value).
fn resolve<'r>(
    map: &'r serde_json::Map<String, Value>,
    reference: &str,
    resolver: &Rc<Resolver<'r>>,
) -> Option<Target<'r>> {
    if reference.is_empty() {
        return None;
    }
    let Ok(resolved) = resolver.lookup(reference) else {
        return Some(accept_all(resolver));
    };
    let (target, target_resolver, draft) = resolved.into_inner();
    if target
        .as_object()
        .is_some_and(|target| std::ptr::eq(target, map))
    {
        return None;
    }
    Some((target, Rc::new(target_resolver), draft))
}

/// The children's costs of one pair, added up as the walk meets them.
#[derive(Default)]
struct Sum {
    checks: u64,
    listing: u64,
    height: usize,
}

impl Sum {
    /// The cost of the pair whose children these are.
    fn cost(&self) -> Cost {
        Cost {
            checks: self.checks.saturating_add(1),
            listing: self.listing.saturating_add(self.checks).saturating_add(1),
            height: self.height + 1,
        }
    }

    fn add(&mut self, cost: Cost) -> Result<(), Stop> {
        self.checks = self.checks.saturating_add(cost.checks);
        self.listing = self.listing.saturating_add(cost.listing);
        self.height = self.height.max(cost.height);
        if self.checks > CHECK_BUDGET {
            return Err(Stop::TooManyChecks);
        }
        Ok(())
    }
}

/// Whether `map` holds a keyword that applies subschemas to the value itself (as opposed to
/// its items or properties).
fn applies_to_itself(map: &serde_json::Map<String, Value>) -> bool {
    map.keys().any(|keyword| {
        matches!(
            keyword.as_str(),
            "$ref" | "$dynamicRef" | "$recursiveRef" | "allOf" | "anyOf" | "oneOf" | "not" | "if"
        )
    })
}

/// Whether `draft` has `if`, `then` and `else`.
fn has_if(draft: Draft) -> bool {
    draft != Draft::Draft4 && draft != Draft::Draft6
}

fn is_draft_before_2019(draft: Draft) -> bool {
    matches!(draft, Draft::Draft4 | Draft::Draft6 | Draft::Draft7)
}

fn is_draft_2020_or_later(draft: Draft) -> bool {
    !is_draft_before_2019(draft) && draft != Draft::Draft201909
}

/// `$defs` l0..l{depth}, each `anyOf` two references to the next: 2^depth paths.
#[cfg(test)]
pub(crate) fn doubling_defs(depth: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for level in 0..depth {
        let next = serde_json::json!({"$ref": format!("#/$defs/l{}", level + 1)});
        defs.insert(
            format!("l{level}"),
            serde_json::json!({"anyOf": [next.clone(), next]}),
        );
    }
    defs.insert(format!("l{depth}"), serde_json::json!({"type": "string"}));
    serde_json::json!({"$defs": defs, "$ref": "#/$defs/l0"})
}

/// A schema whose `$defs` refer each to the next, `depth` deep, ending in `{"type": "string"}`.
#[cfg(test)]
pub(crate) fn chain_of_refs(depth: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for level in 0..depth {
        defs.insert(
            format!("l{level}"),
            serde_json::json!({"$ref": format!("#/$defs/l{}", level + 1)}),
        );
    }
    defs.insert(format!("l{depth}"), serde_json::json!({"type": "string"}));
    serde_json::json!({"$defs": defs, "$ref": "#/$defs/l0"})
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Map, Value};

    use super::{Assessment, SchemaBound, MAX_NESTING};
    use crate::checks::catalog::{draft_of, validator_for};

    /// What the walk decides for `args` under `schema`, which must compile and have references.
    fn assess(schema: &Value, args: &Value) -> Assessment {
        validator_for(schema).expect("the schema compiles");
        SchemaBound::for_schema(schema, draft_of(schema))
            .expect("the references index")
            .expect("the schema has references")
            .assess(args)
    }

    const WITHIN: Assessment = Assessment::Within {
        can_list_errors: true,
    };

    use super::doubling_defs;

    /// `{"c": {"c": ... {}}}`, `depth` levels.
    fn nested(depth: usize) -> Value {
        (0..depth).fold(json!({}), |inner, _| json!({"c": inner}))
    }

    #[test]
    fn a_schema_without_references_is_not_walked() {
        let schema = json!({"anyOf": [{"anyOf": [{"type": "string"}, {"type": "integer"}]}, {}]});
        assert!(SchemaBound::for_schema(&schema, draft_of(&schema))
            .unwrap()
            .is_none());
    }

    #[test]
    fn references_that_double_at_each_level_are_over_budget() {
        assert_eq!(
            assess(&doubling_defs(30), &json!(1.5)),
            Assessment::TooManyChecks
        );
        assert_eq!(
            assess(&doubling_defs(30), &json!("a")),
            Assessment::TooManyChecks
        );
    }

    #[test]
    fn a_few_levels_of_doubling_references_are_within_budget() {
        assert_eq!(assess(&doubling_defs(8), &json!(1.5)), WITHIN);
    }

    #[test]
    fn errors_that_would_take_too_long_to_list_are_told_apart_from_validity() {
        // 2^16 checks decide validity quickly; explaining them re-checks each level.
        assert_eq!(
            assess(&doubling_defs(15), &json!(1.5)),
            Assessment::Within {
                can_list_errors: false
            }
        );
    }

    #[test]
    fn a_recursive_schema_that_doubles_through_the_arguments_is_over_budget() {
        let schema = json!({
            "$defs": {"node": {"type": "object", "properties": {
                "c": {"anyOf": [{"$ref": "#/$defs/node"}, {"$ref": "#/$defs/node"}]}}}},
            "$ref": "#/$defs/node",
        });
        assert_eq!(assess(&schema, &nested(10)), WITHIN);
        assert_eq!(assess(&schema, &nested(30)), Assessment::TooManyChecks);
    }

    #[test]
    fn a_tree_schema_with_arguments_100_levels_deep_is_within_budget() {
        let schema = json!({
            "$defs": {"node": {"type": "object", "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                "parent": {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]}}}},
            "$ref": "#/$defs/node",
        });
        let args = (0..100).fold(json!({"value": 0}), |child, level| {
            json!({"value": level, "children": [child, {"value": "x"}], "parent": null})
        });
        assert_eq!(assess(&schema, &args), WITHIN);
    }

    #[test]
    fn a_pydantic_style_schema_is_within_budget() {
        let schema = json!({
            "$defs": {
                "Address": {"type": "object", "title": "Address", "properties": {
                    "street": {"type": "string"},
                    "zip": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null}},
                    "required": ["street"]},
                "Line": {"type": "object", "properties": {
                    "sku": {"type": "string"},
                    "qty": {"type": "integer", "minimum": 1},
                    "ship_to": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}]}},
                    "required": ["sku", "qty"]},
            },
            "type": "object",
            "properties": {"lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}}},
            "required": ["lines"],
        });
        let lines: Vec<Value> = (0..500)
            .map(|index| json!({"sku": format!("s{index}"), "qty": index, "ship_to": {"street": "a"}}))
            .collect();
        assert_eq!(assess(&schema, &json!({"lines": lines})), WITHIN);
    }

    #[test]
    fn id_relative_references_are_followed() {
        // The doubling only exists if "l1.json" resolves against each `$id` to the next level.
        let mut defs = Map::new();
        for level in 0..30 {
            let next = json!({"$ref": format!("l{}.json", level + 1)});
            defs.insert(
                format!("l{level}"),
                json!({"$id": format!("l{level}.json"), "anyOf": [next.clone(), next]}),
            );
        }
        defs.insert("l30".into(), json!({"$id": "l30.json", "type": "string"}));
        let schema = json!({"$id": "https://example.com/tools/t.json", "$defs": defs,
            "$ref": "l0.json"});
        assert_eq!(assess(&schema, &json!(1)), Assessment::TooManyChecks);
    }

    #[test]
    fn dynamic_references_are_followed_in_their_scope() {
        // The extension's `$dynamicAnchor` takes over the base tree's recursion, so the doubling
        // in "items" exists only when `$dynamicRef` resolves through the dynamic scope.
        let schema = json!({
            "$id": "https://example.com/strict-tree",
            "$dynamicAnchor": "node",
            "$ref": "tree",
            "anyOf": [{"type": "object"}, {"type": "object"}],
            "$defs": {"tree": {
                "$id": "tree",
                "$dynamicAnchor": "node",
                "type": "object",
                "properties": {"c": {"$dynamicRef": "#node"}},
            }},
        });
        assert_eq!(assess(&schema, &nested(10)), WITHIN);
        // One path per level, however deep.
        assert_eq!(assess(&schema, &nested(120)), WITHIN);
        let doubling = json!({
            "$id": "https://example.com/strict-tree",
            "$dynamicAnchor": "node",
            "allOf": [{"$ref": "tree"}, {"$ref": "tree"}],
            "$defs": {"tree": {
                "$id": "tree",
                "$dynamicAnchor": "node",
                "type": "object",
                "properties": {"c": {"$dynamicRef": "#node"}},
            }},
        });
        assert_eq!(assess(&doubling, &nested(30)), Assessment::TooManyChecks);
    }

    #[test]
    fn a_loop_at_the_same_value_is_undecidable_at_its_pointer() {
        let schema = json!({"properties": {"a": {"anyOf": [{"$ref": "#/properties/a"}]}}});
        assert_eq!(
            assess(&schema, &json!({"a": 1, "b": 2})),
            Assessment::Loop {
                pointer: "/a".into()
            }
        );
        assert_eq!(assess(&schema, &json!({"b": 2})), WITHIN);
        // A loop through several schemas: jsonschema's own guard cuts it late enough that six of
        // them ran out of memory while listing the errors.
        let mut defs = Map::new();
        let refs: Vec<Value> = (0..6)
            .map(|index| json!({"$ref": format!("#/$defs/a{index}")}))
            .chain([json!({"type": "string"})])
            .collect();
        for index in 0..6 {
            defs.insert(format!("a{index}"), json!({"allOf": refs}));
        }
        let clique = json!({"$defs": defs, "$ref": "#/$defs/a0"});
        assert_eq!(
            assess(&clique, &json!([1])),
            Assessment::Loop {
                pointer: String::new()
            }
        );
    }

    #[test]
    fn a_reference_to_its_own_schema_is_skipped_as_jsonschema_does() {
        assert_eq!(assess(&json!({"$ref": "#"}), &json!(1)), WITHIN);
        assert_eq!(
            assess(
                &json!({"properties": {"a": {"$ref": ""}}}),
                &json!({"a": 1})
            ),
            WITHIN
        );
    }

    #[test]
    fn the_same_schema_twice_at_one_value_side_by_side_is_not_a_loop() {
        // The JSON Schema test suite's "infinite-loop-detection" case.
        let schema = json!({
            "$defs": {"int": {"type": "integer"}},
            "allOf": [
                {"properties": {"foo": {"$ref": "#/$defs/int"}}},
                {"additionalProperties": {"$ref": "#/$defs/int"}},
            ],
        });
        assert_eq!(assess(&schema, &json!({"foo": "a string"})), WITHIN);
    }

    #[test]
    fn recursion_through_the_arguments_is_not_a_loop() {
        let schema = json!({"type": "array", "items": {"$ref": "#"}});
        assert_eq!(assess(&schema, &json!([[[], [[]]], []])), WITHIN);
    }

    #[test]
    fn drafts_4_to_7_follow_only_ref_beside_siblings() {
        let looping_sibling = |schema_uri: &str| {
            json!({"$schema": schema_uri, "definitions": {"n": {"type": "integer"}},
                "$ref": "#/definitions/n", "anyOf": [{"$ref": "#"}]})
        };
        let draft7 = looping_sibling("http://json-schema.org/draft-07/schema#");
        assert_eq!(assess(&draft7, &json!(1)), WITHIN);
        let draft2020 = looping_sibling("https://json-schema.org/draft/2020-12/schema");
        assert!(matches!(
            assess(&draft2020, &json!(1)),
            Assessment::Loop { .. }
        ));
    }

    #[test]
    fn a_chain_of_references_deeper_than_the_nesting_bound_is_too_deep() {
        let schema = super::chain_of_refs(MAX_NESTING + 10);
        assert_eq!(assess(&schema, &json!(1)), Assessment::TooDeep);
    }

    #[test]
    fn property_names_and_every_item_keyword_count_their_values() {
        let doubling = doubling_defs(12);
        let at = |keyword: &str| {
            let mut schema = doubling.clone();
            schema[keyword] = json!({"$ref": "#/$defs/l0"});
            schema.as_object_mut().unwrap().remove("$ref");
            schema
        };
        let many_names: Map<String, Value> = (0..200)
            .map(|index| (format!("k{index}"), json!(1)))
            .collect();
        let many_items = json!(vec![1; 200]);
        // 2^12 checks each, once is fine, 200 times is not.
        assert_eq!(assess(&at("propertyNames"), &json!({"k": 1})), WITHIN);
        for (keyword, args) in [
            ("propertyNames", Value::Object(many_names.clone())),
            ("additionalProperties", Value::Object(many_names)),
            ("items", many_items.clone()),
            ("contains", many_items),
        ] {
            assert_eq!(
                assess(&at(keyword), &args),
                Assessment::TooManyChecks,
                "{keyword}"
            );
        }
    }

    #[test]
    fn many_patterns_over_many_properties_stop_before_they_are_held() {
        // 1,100 patterns over 1,000 properties would be 1.1 million pairs waiting at once.
        let patterns: Map<String, Value> = (0..1_100)
            .map(|index| (format!("^p{index}$"), json!({"type": "integer"})))
            .collect();
        let schema =
            json!({"$defs": {"n": {}}, "$ref": "#/$defs/n", "patternProperties": patterns});
        let args: Map<String, Value> = (0..1_000)
            .map(|index| (format!("k{index}"), json!(1)))
            .collect();
        assert_eq!(
            assess(&schema, &Value::Object(args)),
            Assessment::TooManyChecks
        );
    }
}
