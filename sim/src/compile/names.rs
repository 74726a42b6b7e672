//! Names: where each top-level port and each named signal's value is (a slot, a
//! constant, or gone as dead logic), for `get`, `peek` and waveforms.

use crate::flat::{FlatId, FlatKind};
use crate::program::{NONE, NamedSignal, Source};

use super::Design;

/// Where node `id`'s value is.
pub(super) fn source(d: &Design<'_>, id: FlatId) -> Source {
    let c = d.canon[id as usize];
    let slot = d.slots.slot[c as usize];
    match &d.flat.nodes[c as usize].kind {
        FlatKind::Const(b) if slot == NONE => Source::Const(b.clone()),
        _ if slot == NONE => Source::Gone,
        _ => Source::Slot(slot),
    }
}

/// Every named node and every output port with a name of its own.
pub(super) fn named(d: &Design<'_>) -> Vec<NamedSignal> {
    let flat = d.flat;
    let mut named: Vec<NamedSignal> = flat
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, node)| {
            node.name.as_ref().map(|name| NamedSignal {
                scope: node.scope,
                name: name.clone(),
                width: node.width,
                source: source(d, i as FlatId),
            })
        })
        .collect();
    for (scope, name, width, id) in &flat.output_ports {
        named.push(NamedSignal {
            scope: *scope,
            name: name.clone(),
            width: *width,
            source: source(d, *id),
        });
    }
    named
}

/// The top-level inputs: (name, width, slot).
pub(super) fn inputs(d: &Design<'_>) -> Vec<(String, u32, u32)> {
    d.flat
        .inputs
        .iter()
        .map(|(name, w, id)| (name.clone(), *w, d.slots.slot[*id as usize]))
        .collect()
}

/// The top-level outputs: (name, width, source).
pub(super) fn outputs(d: &Design<'_>) -> Vec<(String, u32, Source)> {
    d.flat
        .outputs
        .iter()
        .map(|(name, w, id)| (name.clone(), *w, source(d, *id)))
        .collect()
}
