//! Name resolution, types, range restriction and stratification.

use hashbrown::HashMap;

use crate::diag::{Diagnostic, Diagnostics};
use crate::program::{Arg, AtomIr, Column, IoParams, Lit, RelationInfo, Rule, Stratum};
use crate::symbols::SymbolTable;
use crate::syntax::ast::{self, CmpOp, IoKind, Item, Term};
use crate::syntax::Pos;
use crate::value::ColumnType;

/// The checked program, before planning.
pub(crate) struct Checked {
    pub relations: Vec<RelationInfo>,
    pub by_name: HashMap<String, usize>,
    pub rules: Vec<Rule>,
    pub facts: Vec<(usize, Vec<u32>)>,
    pub symbols: SymbolTable,
    pub strata: Vec<Stratum>,
}

struct Checker<'a> {
    files: &'a [String],
    diags: Vec<Diagnostic>,
    types: HashMap<String, ColumnType>,
    relations: Vec<RelationInfo>,
    by_name: HashMap<String, usize>,
    decl_pos: Vec<Pos>,
    symbols: SymbolTable,
}

impl Checker<'_> {
    fn err(&mut self, pos: Pos, msg: impl Into<String>) {
        let file = self.files.get(pos.file as usize).cloned().unwrap_or_default();
        self.diags.push(Diagnostic::new(file, pos.line, pos.col, msg));
    }

    fn unknown_relation(&mut self, name: &ast::Name) {
        let mut msg = format!("unknown relation '{}': expected a relation declared with .decl", name.text);
        if let Some(s) = closest(&name.text, self.relations.iter().map(|r| r.name.as_str())) {
            msg.push_str(&format!(" (did you mean '{s}'?)"));
        }
        self.err(name.pos, msg);
    }
}

/// Checks loaded items and produces the program's relations, rules, facts and strata.
pub(crate) fn check(files: &[String], items: &[Item]) -> Result<Checked, Diagnostics> {
    let mut c = Checker { files, diags: Vec::new(), types: HashMap::new(), relations: Vec::new(), by_name: HashMap::new(), decl_pos: Vec::new(), symbols: SymbolTable::new() };
    resolve_types(&mut c, items);
    for item in items {
        if let Item::Decl(d) = item {
            declare(&mut c, d);
        }
    }
    for item in items {
        if let Item::Io(io) = item {
            io_directive(&mut c, io);
        }
    }
    let mut rules = Vec::new();
    let mut facts = Vec::new();
    for item in items {
        if let Item::Clause(cl) = item {
            clause(&mut c, cl, &mut rules, &mut facts);
        }
    }
    if !c.diags.is_empty() {
        return Err(Diagnostics(c.diags));
    }
    for r in &rules {
        c.relations[r.head.rel].has_rules = true;
    }
    let strata = stratify(&mut c, &rules);
    if !c.diags.is_empty() {
        return Err(Diagnostics(c.diags));
    }
    Ok(Checked { relations: c.relations, by_name: c.by_name, rules, facts, symbols: c.symbols, strata })
}

fn resolve_types(c: &mut Checker, items: &[Item]) {
    let mut pending: Vec<&ast::TypeDecl> = Vec::new();
    for item in items {
        if let Item::Type(t) = item {
            if matches!(t.name.text.as_str(), "number" | "unsigned" | "symbol" | "float") || pending.iter().any(|p| p.name.text == t.name.text) {
                c.err(t.name.pos, format!("type '{}' is already defined: expected a new type name", t.name.text));
                continue;
            }
            pending.push(t);
        }
    }
    // Resolve chains such as `.type A <: B`, `.type B <: number` in any order.
    loop {
        let before = pending.len();
        pending.retain(|t| match base_type(&c.types, &t.base.text) {
            Some(ty) => {
                c.types.insert(t.name.text.clone(), ty);
                false
            }
            None => true,
        });
        if pending.is_empty() || pending.len() == before {
            break;
        }
    }
    for t in pending {
        let msg = if t.base.text == "float" {
            "type float is not supported: expected number, unsigned or symbol".to_string()
        } else {
            format!("unknown type '{}': expected number, unsigned, symbol or a type declared with .type", t.base.text)
        };
        c.err(t.base.pos, msg);
    }
}

fn base_type(types: &HashMap<String, ColumnType>, name: &str) -> Option<ColumnType> {
    match name {
        "number" => Some(ColumnType::Number),
        "unsigned" => Some(ColumnType::Unsigned),
        "symbol" => Some(ColumnType::Symbol),
        other => types.get(other).copied(),
    }
}

fn declare(c: &mut Checker, d: &ast::Decl) {
    if let Some(&prev) = c.by_name.get(&d.name.text) {
        let p = c.decl_pos[prev];
        let msg = format!("relation '{}' is declared twice (first at {}:{}:{}): expected a new relation name", d.name.text, c.files[p.file as usize], p.line, p.col);
        c.err(d.name.pos, msg);
        return;
    }
    if d.attrs.len() > crate::plan::MAX_ARITY {
        let msg = format!("relation '{}' has {} columns: expected at most {}", d.name.text, d.attrs.len(), crate::plan::MAX_ARITY);
        c.err(d.name.pos, msg);
    }
    let mut columns = Vec::new();
    for (attr, ty) in &d.attrs {
        if columns.iter().any(|col: &Column| col.name == attr.text) {
            c.err(attr.pos, format!("attribute '{}' appears twice in '{}': expected distinct attribute names", attr.text, d.name.text));
        }
        let ty = match base_type(&c.types, &ty.text) {
            Some(t) => t,
            None => {
                let msg = if ty.text == "float" {
                    "type float is not supported: expected number, unsigned or symbol".to_string()
                } else {
                    format!("unknown type '{}': expected number, unsigned, symbol or a type declared with .type", ty.text)
                };
                c.err(ty.pos, msg);
                ColumnType::Number
            }
        };
        columns.push(Column { name: attr.text.clone(), ty });
    }
    let id = c.relations.len();
    c.by_name.insert(d.name.text.clone(), id);
    c.decl_pos.push(d.name.pos);
    c.relations.push(RelationInfo { name: d.name.text.clone(), columns, input: None, output: None, printsize: false, has_rules: false });
}

fn io_directive(c: &mut Checker, io: &ast::IoDecl) {
    let Some(&rel) = c.by_name.get(&io.rel.text) else {
        c.unknown_relation(&io.rel);
        return;
    };
    let mut params = IoParams::default();
    for (key, value) in &io.params {
        match key.text.as_str() {
            "filename" => params.filename = Some(value.clone()),
            "delimiter" => params.delimiter = Some(value.clone()),
            "IO" if value == "file" => {}
            "IO" => c.err(key.pos, format!("unsupported IO={value}: expected IO=file")),
            other => c.err(key.pos, format!("unsupported parameter '{other}': expected IO, filename or delimiter")),
        }
    }
    let r = &mut c.relations[rel];
    match io.kind {
        IoKind::Input => r.input = Some(params),
        IoKind::Output => r.output = Some(params),
        IoKind::PrintSize => r.printsize = true,
    }
}

/// Per-rule variable table during checking.
struct Vars {
    names: Vec<String>,
    types: Vec<Option<(ColumnType, Pos)>>,
}

impl Vars {
    fn id(&mut self, name: &str) -> u32 {
        if let Some(i) = self.names.iter().position(|n| n == name) {
            return i as u32;
        }
        self.names.push(name.to_string());
        self.types.push(None);
        (self.names.len() - 1) as u32
    }
}

fn clause(c: &mut Checker, cl: &ast::Clause, rules: &mut Vec<Rule>, facts: &mut Vec<(usize, Vec<u32>)>) {
    if cl.is_fact {
        for head in &cl.heads {
            fact(c, head, facts);
        }
        return;
    }
    for body in &cl.bodies {
        for head in &cl.heads {
            if let Some(rule) = rule(c, head, body, cl.pos) {
                rules.push(rule);
            }
        }
    }
}

fn fact(c: &mut Checker, atom: &ast::Atom, facts: &mut Vec<(usize, Vec<u32>)>) {
    let Some(rel) = lookup_atom(c, atom) else { return };
    let mut values = Vec::new();
    for (i, t) in atom.args.iter().enumerate() {
        let ty = c.relations[rel].columns[i].ty;
        match t {
            Term::Var(n) => {
                let msg = format!("a fact takes constants only: expected a number or string for column {} of '{}', found variable '{}'", i + 1, atom.rel.text, n.text);
                c.err(n.pos, msg);
            }
            Term::Wild(p) => {
                let msg = format!("a fact takes constants only: expected a number or string for column {} of '{}', found '_'", i + 1, atom.rel.text);
                c.err(*p, msg);
            }
            _ => {
                if let Some(v) = constant(c, t, ty, &format!("column {} of '{}'", i + 1, atom.rel.text)) {
                    values.push(v);
                }
            }
        }
    }
    if values.len() == atom.args.len() {
        facts.push((rel, values));
    }
}

/// Resolves the atom's relation and checks its arity.
fn lookup_atom(c: &mut Checker, atom: &ast::Atom) -> Option<usize> {
    let Some(&rel) = c.by_name.get(&atom.rel.text) else {
        c.unknown_relation(&atom.rel);
        return None;
    };
    let arity = c.relations[rel].columns.len();
    if arity != atom.args.len() {
        let msg = format!(
            "arity mismatch: relation '{}' has {} column{}, but {} argument{} {} given",
            atom.rel.text,
            arity,
            if arity == 1 { "" } else { "s" },
            atom.args.len(),
            if atom.args.len() == 1 { "" } else { "s" },
            if atom.args.len() == 1 { "is" } else { "are" },
        );
        c.err(atom.rel.pos, msg);
        return None;
    }
    Some(rel)
}

/// Encodes a constant for a column of type `ty`, or reports a type mismatch.
fn constant(c: &mut Checker, t: &Term, ty: ColumnType, what: &str) -> Option<u32> {
    match (t, ty) {
        (Term::Num(n, p), ColumnType::Number) => {
            if *n < i32::MIN as i64 || *n > i32::MAX as i64 {
                c.err(*p, format!("number {n} is out of range for {what}: expected a signed 32-bit value"));
                return None;
            }
            Some(ty.flip(*n as i32 as u32))
        }
        (Term::Num(n, p), ColumnType::Unsigned) => {
            if *n < 0 || *n > u32::MAX as i64 {
                c.err(*p, format!("number {n} is out of range for {what}: expected an unsigned 32-bit value"));
                return None;
            }
            Some(*n as u32)
        }
        (Term::Str(s, _), ColumnType::Symbol) => Some(c.symbols.intern(s)),
        (Term::Num(n, p), ColumnType::Symbol) => {
            c.err(*p, format!("type mismatch: expected a symbol (a quoted string) for {what}, found number {n}"));
            None
        }
        (Term::Str(s, p), _) => {
            c.err(*p, format!("type mismatch: expected a {ty} for {what}, found string \"{}\"", s.escape_default()));
            None
        }
        _ => None,
    }
}

fn rule(c: &mut Checker, head: &ast::Atom, body: &[ast::Literal], pos: Pos) -> Option<Rule> {
    let errors_before = c.diags.len();
    let mut vars = Vars { names: Vec::new(), types: Vec::new() };
    // Variables: first learn types from every atom occurrence, then check constants and
    // comparisons against them, so that a constant's type follows its variable wherever it is.
    let mut atoms: Vec<(&ast::Atom, Option<usize>)> = vec![(head, lookup_atom(c, head))];
    for lit in body {
        if let ast::Literal::Pos(a) | ast::Literal::Neg(a, _) = lit {
            atoms.push((a, lookup_atom(c, a)));
        }
    }
    learn_types(c, &mut vars, &atoms, body);
    let (head_ir, lits) = convert(c, &mut vars, &atoms, body)?;
    if c.diags.len() > errors_before {
        return None;
    }
    check_range_restriction(c, &vars, head, &head_ir, &lits);
    if c.diags.len() > errors_before {
        return None;
    }
    Some(Rule { head: head_ir, body: lits.into_iter().map(|(l, _)| l).collect(), var_names: vars.names, pos })
}

/// Gives each variable the type of its first column, reports conflicting uses, and passes types
/// on through comparisons to variables that no atom types.
fn learn_types(c: &mut Checker, vars: &mut Vars, atoms: &[(&ast::Atom, Option<usize>)], body: &[ast::Literal]) {
    for &(atom, rel) in atoms {
        let Some(rel) = rel else { continue };
        for (i, t) in atom.args.iter().enumerate() {
            if let Term::Var(n) = t {
                let ty = c.relations[rel].columns[i].ty;
                let v = vars.id(&n.text) as usize;
                match vars.types[v] {
                    None => vars.types[v] = Some((ty, n.pos)),
                    Some((prev, ppos)) if prev != ty => {
                        let msg = format!("type mismatch: variable '{}' is a {} here (column {} of '{}') but a {} at {}:{}", n.text, ty, i + 1, atom.rel.text, prev, ppos.line, ppos.col);
                        c.err(n.pos, msg);
                    }
                    _ => {}
                }
            }
        }
    }
    // Comparisons between variables propagate types to variables seen only in comparisons.
    for _ in 0..body.len() {
        for lit in body {
            if let ast::Literal::Cmp(Term::Var(a), _, Term::Var(b), _) = lit {
                let (ia, ib) = (vars.id(&a.text) as usize, vars.id(&b.text) as usize);
                match (vars.types[ia], vars.types[ib]) {
                    (Some(t), None) => vars.types[ib] = Some(t),
                    (None, Some(t)) => vars.types[ia] = Some(t),
                    _ => {}
                }
            }
        }
    }
}

/// The head and body in IR, each literal with its position; `None` if an atom names no relation.
fn convert(c: &mut Checker, vars: &mut Vars, atoms: &[(&ast::Atom, Option<usize>)], body: &[ast::Literal]) -> Option<(AtomIr, Vec<(Lit, Pos)>)> {
    let head = atoms[0].0;
    let convert_atom = |c: &mut Checker, vars: &mut Vars, atom: &ast::Atom, rel: usize, is_head: bool| -> AtomIr {
        let mut args = Vec::new();
        for (i, t) in atom.args.iter().enumerate() {
            let ty = c.relations[rel].columns[i].ty;
            let arg = match t {
                Term::Var(n) => Arg::Var(vars.id(&n.text)),
                Term::Wild(p) => {
                    if is_head {
                        c.err(*p, "'_' is not allowed in a head: expected a variable or constant");
                    }
                    Arg::Wild
                }
                _ => constant(c, t, ty, &format!("column {} of '{}'", i + 1, atom.rel.text)).map(Arg::Const).unwrap_or(Arg::Wild),
            };
            args.push(arg);
        }
        AtomIr { rel, args }
    };

    let head_ir = atoms[0].1.map(|rel| convert_atom(c, vars, head, rel, true));
    let mut lits = Vec::new();
    let mut atom_iter = atoms.iter().skip(1);
    for lit in body {
        match lit {
            ast::Literal::Pos(a) => {
                let (_, rel) = atom_iter.next().copied()?;
                if let Some(rel) = rel {
                    lits.push((Lit::Pos(convert_atom(c, vars, a, rel, false)), a.rel.pos));
                }
            }
            ast::Literal::Neg(a, p) => {
                let (_, rel) = atom_iter.next().copied()?;
                if let Some(rel) = rel {
                    lits.push((Lit::Neg(convert_atom(c, vars, a, rel, false)), *p));
                }
            }
            ast::Literal::Cmp(l, op, r, p) => {
                let (la, ra) = cmp_args(c, vars, l, *op, r, *p);
                lits.push((Lit::Cmp(la, *op, ra), *p));
            }
        }
    }
    Some((head_ir?, lits))
}

/// Reports every head, negated or compared variable that no positive atom binds (directly, or
/// through `x = t` once t is bound).
fn check_range_restriction(c: &mut Checker, vars: &Vars, head: &ast::Atom, head_ir: &AtomIr, lits: &[(Lit, Pos)]) {
    // Range restriction: positive atoms bind; `x = t` binds x once t is bound.
    let mut bound = vec![false; vars.names.len()];
    for (l, _) in lits {
        if let Lit::Pos(a) = l {
            for arg in &a.args {
                if let Arg::Var(v) = arg {
                    bound[*v as usize] = true;
                }
            }
        }
    }
    loop {
        let mut changed = false;
        for (l, _) in lits {
            if let Lit::Cmp(a, CmpOp::Eq, b) = l {
                let is_bound = |x: &Arg, bound: &[bool]| match x {
                    Arg::Var(v) => bound[*v as usize],
                    _ => true,
                };
                for (x, y) in [(a, b), (b, a)] {
                    if let Arg::Var(v) = x {
                        if !bound[*v as usize] && is_bound(y, &bound) {
                            bound[*v as usize] = true;
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let unbound = |arg: &Arg| match arg {
        Arg::Var(v) if !bound[*v as usize] => Some(*v as usize),
        _ => None,
    };
    for (i, arg) in head_ir.args.iter().enumerate() {
        if let Some(v) = unbound(arg) {
            let msg = format!("variable '{}' in the head of '{}' is not range-restricted: expected it in a positive body atom", vars.names[v], head.rel.text);
            c.err(head.args[i].pos(), msg);
        }
    }
    for (lit, p) in lits {
        match lit {
            Lit::Neg(a) => {
                for arg in &a.args {
                    if let Some(v) = unbound(arg) {
                        let msg = format!(
                            "variable '{}' in the negation of '{}' is not range-restricted: expected it in a positive body atom (write '_' for an unconstrained argument)",
                            vars.names[v], c.relations[a.rel].name
                        );
                        c.err(*p, msg);
                    }
                }
            }
            Lit::Cmp(a, op, b) => {
                for arg in [a, b] {
                    if let Some(v) = unbound(arg) {
                        let msg = format!("variable '{}' in the constraint '{}' is not range-restricted: expected it in a positive body atom", vars.names[v], op.symbol());
                        c.err(*p, msg);
                    }
                }
            }
            Lit::Pos(_) => {}
        }
    }
}

fn cmp_args(c: &mut Checker, vars: &mut Vars, l: &Term, op: CmpOp, r: &Term, pos: Pos) -> (Arg, Arg) {
    let var_type = |vars: &mut Vars, t: &Term| match t {
        Term::Var(n) => {
            let v = vars.id(&n.text) as usize;
            vars.types[v].map(|(ty, _)| ty)
        }
        _ => None,
    };
    let lt = var_type(vars, l);
    let rt = var_type(vars, r);
    let lit_type = |t: &Term| match t {
        Term::Num(..) => Some(ColumnType::Number),
        Term::Str(..) => Some(ColumnType::Symbol),
        _ => None,
    };
    // The comparison's type: a variable's type wins over a literal's, so `u < 3` works for unsigned u.
    let ty = lt.or(rt).or_else(|| lit_type(l)).or_else(|| lit_type(r)).unwrap_or(ColumnType::Number);
    if let (Some(a), Some(b)) = (lt, rt) {
        if a != b {
            c.err(pos, format!("type mismatch in '{}': expected both sides to have the same type, found {a} and {b}", op.symbol()));
        }
    }
    if ty == ColumnType::Symbol && !matches!(op, CmpOp::Eq | CmpOp::Ne) {
        c.err(pos, format!("'{}' orders numbers: expected number or unsigned operands, found symbol", op.symbol()));
    }
    let mut arg = |c: &mut Checker, t: &Term| match t {
        Term::Var(n) => Arg::Var(vars.id(&n.text)),
        Term::Wild(p) => {
            c.err(*p, "'_' is not allowed in a constraint: expected a variable or constant");
            Arg::Wild
        }
        _ => constant(c, t, ty, &format!("the constraint '{}'", op.symbol())).map(Arg::Const).unwrap_or(Arg::Wild),
    };
    (arg(c, l), arg(c, r))
}

/// Orders relations into strata (strongly connected components of the dependency graph, in
/// dependency order) and rejects negation inside a component.
fn stratify(c: &mut Checker, rules: &[Rule]) -> Vec<Stratum> {
    let n = c.relations.len();
    // Edges from a body relation to the head it feeds, with the negation flag.
    let mut succ: Vec<Vec<(usize, bool, usize)>> = vec![Vec::new(); n];
    for (ri, r) in rules.iter().enumerate() {
        for l in &r.body {
            match l {
                Lit::Pos(a) => succ[a.rel].push((r.head.rel, false, ri)),
                Lit::Neg(a) => succ[a.rel].push((r.head.rel, true, ri)),
                Lit::Cmp(..) => {}
            }
        }
    }
    let comps = tarjan(n, &succ);
    let mut comp_of = vec![0; n];
    for (i, comp) in comps.iter().enumerate() {
        for &r in comp {
            comp_of[r] = i;
        }
    }
    for (from, edges) in succ.iter().enumerate() {
        for &(to, neg, ri) in edges {
            if neg && comp_of[from] == comp_of[to] {
                let cycle = cycle_path(&succ, &comp_of, to, from);
                let mut names: Vec<String> = Vec::new();
                names.push(c.relations[to].name.clone());
                names.push(format!("!{}", c.relations[from].name));
                for &r in cycle.iter().skip(1) {
                    names.push(c.relations[r].name.clone());
                }
                let pos = rules[ri].pos;
                let msg = format!(
                    "negation through recursion: '{}' depends negatively on '{}' in the cycle {} (each relation depends on the next); expected a stratified program",
                    c.relations[to].name,
                    c.relations[from].name,
                    names.join(" -> ")
                );
                c.err(pos, msg);
                return Vec::new();
            }
        }
    }
    // Tarjan yields components in reverse topological order of the successor graph.
    comps
        .into_iter()
        .rev()
        .map(|mut rels| {
            rels.sort_unstable();
            let recursive = rels.len() > 1 || succ[rels[0]].iter().any(|&(to, _, _)| to == rels[0]);
            Stratum { rels, recursive }
        })
        .collect()
}

/// The relations on a dependency cycle through the negative edge `body -> head`, as the path
/// `body, x1, ..., head` where each relation depends on the next (found by a breadth-first search
/// from `head` along body-to-head edges, then read backwards).
fn cycle_path(succ: &[Vec<(usize, bool, usize)>], comp_of: &[usize], head: usize, body: usize) -> Vec<usize> {
    let n = succ.len();
    let mut prev = vec![usize::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    queue.push_back(head);
    prev[head] = head;
    while let Some(x) = queue.pop_front() {
        if x == body {
            break;
        }
        for &(y, _, _) in &succ[x] {
            if comp_of[y] == comp_of[head] && prev[y] == usize::MAX {
                prev[y] = x;
                queue.push_back(y);
            }
        }
    }
    let mut path = vec![body];
    let mut x = body;
    while x != head && prev[x] != usize::MAX {
        x = prev[x];
        path.push(x);
    }
    if path.len() == 1 || *path.last().unwrap_or(&head) != head {
        path.push(head);
    }
    path
}

fn tarjan(n: usize, succ: &[Vec<(usize, bool, usize)>]) -> Vec<Vec<usize>> {
    // Iterative Tarjan so deep dependency chains cannot overflow the stack.
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comps = Vec::new();
    let mut counter = 0;
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut work: Vec<(usize, usize)> = vec![(start, 0)];
        index[start] = counter;
        low[start] = counter;
        counter += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut ei)) = work.last_mut() {
            if *ei < succ[v].len() {
                let w = succ[v][*ei].0;
                *ei += 1;
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    comps.push(comp);
                }
            }
        }
    }
    comps
}

/// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo.
fn closest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for cand in candidates {
        let d = edit_distance(name, cand);
        if d <= 2.max(name.len() / 4) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, cand));
        }
    }
    best.map(|(_, s)| s)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
