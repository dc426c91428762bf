//! The import graph of one crate, file to file: file A points at file B when A names an item
//! defined in B (`use crate::b::X`, `use super::X`, or a path `crate::b::f()` in code), and
//! the strongly connected components of that graph (its module cycles). A re-export (`pub use
//! b::X`) is a module's facade, not a dependency: it adds no arrow, but a name reached through
//! it is followed to the file that defines it.

use std::collections::{BTreeMap, BTreeSet};

use super::source::Source;

type Module = Vec<String>;

/// The files (by module path) each file imports from, itself excluded. A name that a module
/// only imports (`pub use x::Y`, or a parent's `use` that a child reaches by `super::Y`) is
/// followed to the file that defines it.
pub(super) fn graph(sources: &BTreeMap<Module, Source>) -> BTreeMap<Module, BTreeSet<Module>> {
    let named: BTreeMap<&Module, Vec<Named>> =
        sources.iter().map(|(m, s)| (m, paths(&s.code))).collect();
    let bindings: BTreeMap<&Module, BTreeMap<&str, &[String]>> = named
        .iter()
        .map(|(m, paths)| {
            let bound = paths.iter().filter_map(|n| Some((n.binds.as_deref()?, &n.path[..])));
            (*m, bound.collect())
        })
        .collect();
    let graph = Graph { sources, bindings };
    let mut edges = BTreeMap::new();
    for (module, paths) in &named {
        let targets = paths
            .iter()
            .filter(|n| !n.reexport)
            .filter_map(|n| graph.resolve(module, &n.path, 0))
            .filter(|target| target != *module)
            .collect();
        edges.insert((*module).clone(), targets);
    }
    edges
}

/// A path a file names, the name it binds in the file's module (for `use` leaves), and
/// whether it is a re-export (`pub use`: the module's facade, not a dependency of its own).
struct Named {
    path: Vec<String>,
    binds: Option<String>,
    reexport: bool,
}

struct Graph<'a> {
    sources: &'a BTreeMap<Module, Source>,
    bindings: BTreeMap<&'a Module, BTreeMap<&'a str, &'a [String]>>,
}

impl Graph<'_> {
    /// The file an import path from `module` lands in: the longest module prefix of the path
    /// that has a file, or, when the rest of the path starts with a name that file only
    /// imports, where that import lands; `None` for another crate's path.
    fn resolve(&self, module: &Module, path: &[String], depth: usize) -> Option<Module> {
        let full = self.absolute(module, path)?;
        let file = (0..=full.len())
            .rev()
            .map(|n| full[..n].to_vec())
            .find(|m| self.sources.contains_key(m))?;
        let rest = &full[file.len()..];
        let Some(first) = rest.first() else { return Some(file) };
        let bound = self.bindings.get(&file).and_then(|b| b.get(first.as_str()));
        match bound {
            Some(target) if depth < 8 => {
                let mut next = target.to_vec();
                next.extend(rest[1..].iter().cloned());
                Some(self.resolve(&file, &next, depth + 1).unwrap_or(file))
            }
            _ => Some(file),
        }
    }

    /// `path` from `module` as a path from the crate root; `None` for another crate's path.
    fn absolute(&self, module: &Module, path: &[String]) -> Option<Module> {
        let mut base: Module = match path.first()?.as_str() {
            "crate" => Vec::new(),
            "self" | "super" => module.clone(),
            first => {
                // A child module named without `self::` (edition 2018 paths).
                let mut child = module.clone();
                child.push(first.to_string());
                if !self.sources.contains_key(&child) {
                    return None;
                }
                let mut full = module.clone();
                full.extend(path.iter().cloned());
                return Some(full);
            }
        };
        let mut rest = &path[1..];
        if path[0] == "super" {
            base.pop();
        }
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
        base.extend(rest.iter().filter(|s| *s != "self").cloned());
        Some(base)
    }
}

/// Every path `code` names: each leaf of each `use` tree, and each `crate::`, `super::` or
/// `self::` path written inline.
fn paths(code: &str) -> Vec<Named> {
    let tokens = tokens(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "use" && (i == 0 || tokens[i - 1] != "::") {
            let end = (i..tokens.len()).find(|&j| tokens[j] == ";").unwrap_or(tokens.len());
            let mut at = i + 1;
            let first = out.len();
            use_tree(&tokens[..end], &mut at, &mut Vec::new(), &mut out);
            let public = i > 0 && (tokens[i - 1] == "pub" || tokens[i - 1] == ")");
            for named in &mut out[first..] {
                named.reexport = public;
            }
            i = end;
        } else if matches!(tokens[i].as_str(), "crate" | "super" | "self")
            && tokens.get(i + 1).is_some_and(|t| t == "::")
            && (i == 0 || tokens[i - 1] != "::")
        {
            let mut path = vec![tokens[i].clone()];
            let mut j = i + 1;
            while tokens.get(j).is_some_and(|t| t == "::")
                && tokens.get(j + 1).is_some_and(|t| is_ident(t))
            {
                path.push(tokens[j + 1].clone());
                j += 2;
            }
            out.push(Named { path, binds: None, reexport: false });
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Expands the use tree starting at `tokens[*at]` under `prefix` into `out`.
fn use_tree(tokens: &[String], at: &mut usize, prefix: &mut Vec<String>, out: &mut Vec<Named>) {
    let depth = prefix.len();
    loop {
        match tokens.get(*at).map(String::as_str) {
            Some("{") => {
                *at += 1;
                while tokens.get(*at).is_some_and(|t| t != "}") {
                    let before = *at;
                    use_tree(tokens, at, prefix, out);
                    if tokens.get(*at).is_some_and(|t| t == ",") {
                        *at += 1;
                    } else if *at == before {
                        break;
                    }
                }
                *at += 1;
                break;
            }
            Some("::") => *at += 1,
            Some("*") => {
                *at += 1;
                out.push(Named { path: prefix.clone(), binds: None, reexport: false });
                break;
            }
            Some(t) if is_ident(t) => {
                prefix.push(t.to_string());
                *at += 1;
                if tokens.get(*at).is_none_or(|t| t != "::") {
                    let mut binds = prefix.iter().rev().find(|s| *s != "self").cloned();
                    if tokens.get(*at).is_some_and(|t| t == "as") {
                        binds = tokens.get(*at + 1).cloned();
                        *at += 2;
                    }
                    out.push(Named { path: prefix.clone(), binds, reexport: false });
                    break;
                }
            }
            _ => break,
        }
    }
    prefix.truncate(depth);
}

fn is_ident(token: &str) -> bool {
    token.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Identifiers, `::` and single punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else if c.is_whitespace() {
            i += 1;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

/// The strongly connected components of more than one file (Tarjan).
pub(super) fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Module) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let edges = s.edges;
        for w in edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.out
}
