//! GNU C that driver code relies on: `typeof` of an expression, `offsetof`, and the
//! `__builtin_*` helpers whose meaning is fixed by the compiler.

use super::expr::Val;
use super::{Fatal, Lowerer};
use crate::frontend::ctypes::Specs;
use crate::ir::*;
use lang_c::ast::*;
use lang_c::span::{Node, Span as LSpan};
use lang_c::visit::Visit;

/// The `typeof(expression)` operands of a declaration or type name, innermost first.
/// Initializers are left out: a `typeof` inside one (a statement expression) may name
/// variables that only exist once the initializer is lowered, and is typed then.
struct TypeofOperands<'a>(Vec<&'a Node<Expression>>);

impl<'a> Visit<'a> for TypeofOperands<'a> {
    fn visit_type_of(&mut self, t: &'a TypeOf, span: &'a LSpan) {
        lang_c::visit::visit_type_of(self, t, span);
        if let TypeOf::Expression(e) = t {
            self.0.push(e);
        }
    }

    fn visit_initializer(&mut self, _: &'a Initializer, _: &'a LSpan) {}

    fn visit_statement(&mut self, _: &'a Statement, _: &'a LSpan) {}
}

/// The attributes of a translation unit that make code run where no call is written, which the
/// lowering does not do: `cleanup` (GCC calls the function it names when the variable leaves
/// its scope), `constructor` (the function runs before `main`) and `destructor` (after `main`
/// returns or `exit` is called). Each with its attribute's name.
struct HiddenCalls(Vec<(LSpan, &'static str)>);

impl<'a> Visit<'a> for HiddenCalls {
    fn visit_attribute(&mut self, a: &'a Attribute, span: &'a LSpan) {
        let what = match a.name.node.as_str() {
            "cleanup" | "__cleanup__" => "`__attribute__((cleanup))`: the function it names runs when the variable leaves its scope",
            "constructor" | "__constructor__" => "`__attribute__((constructor))`: the function runs before `main`",
            "destructor" | "__destructor__" => "`__attribute__((destructor))`: the function runs after `main` returns or `exit` is called",
            _ => return,
        };
        self.0.push((*span, what));
    }
}

impl<'a> Lowerer<'a> {
    /// Types every `typeof(expression)` operand found by a visit, in the current scope.
    fn type_operands(&mut self, found: TypeofOperands<'a>) {
        for e in found.0 {
            self.untyped = false;
            let ty = self.static_type(&e.node);
            if std::mem::take(&mut self.untyped) {
                self.unsupported(e.span, "`typeof` of an expression whose type is not resolved");
            }
            self.types.typeofs.insert((e.span.start, e.span.end), ty);
        }
    }

    /// Marks every `cleanup`, `constructor` and `destructor` attribute of the unit (system
    /// headers included: a static constructor there runs too) as an unsupported construct: the
    /// calls they imply would be missing.
    pub(super) fn reject_hidden_calls(&mut self, unit: &'a TranslationUnit) {
        let mut found = HiddenCalls(Vec::new());
        found.visit_translation_unit(unit);
        for (at, what) in found.0 {
            self.unsupported(at, what);
        }
    }

    /// The specifiers of a declaration, after typing its `typeof` operands.
    pub(super) fn declaration_specs(&mut self, d: &'a Node<Declaration>) -> Result<Specs, Fatal> {
        let mut found = TypeofOperands(Vec::new());
        for s in &d.node.specifiers {
            found.visit_declaration_specifier(&s.node, &s.span);
        }
        for id in &d.node.declarators {
            found.visit_declarator(&id.node.declarator.node, &id.node.declarator.span);
        }
        self.type_operands(found);
        self.types.specs(&d.node.specifiers).map_err(|e| self.error(d.span, format!("unsupported type: {e}")))
    }

    /// A type name (of a cast, `sizeof` or compound literal), after typing its `typeof` operands.
    pub(super) fn type_name_at(&mut self, tn: &'a Node<TypeName>, at: LSpan) -> Result<CType, Fatal> {
        let mut found = TypeofOperands(Vec::new());
        found.visit_type_name(&tn.node, &tn.span);
        self.type_operands(found);
        self.types.type_name(&tn.node).map_err(|m| self.error(at, format!("unsupported type: {m}")))
    }

    /// `offsetof(T, m.n[i])` as the address of that member in an object at address 0, the
    /// form `&((T *)0)->m` that drivers also write: the engines' memory measures offsets in
    /// its own units, so `container_of` finds the enclosing object in every engine.
    pub(super) fn offset_of(&mut self, o: &'a Node<OffsetOfExpression>, at: LSpan) -> Result<Val, Fatal> {
        let ty = self.type_name_at(&o.node.type_name, at)?;
        let mut lv = Lval::Deref(Box::new(Expr::Const(0, Ty::Ptr)), ty.clone());
        let mut cur = ty;
        let d = &o.node.designator.node;
        let members = std::iter::once(Either::Member(&d.base.node.name)).chain(d.members.iter().map(|m| match &m.node {
            OffsetMember::Member(id) | OffsetMember::IndirectMember(id) => Either::Member(&id.node.name),
            OffsetMember::Index(e) => Either::Index(e),
        }));
        for m in members {
            match m {
                Either::Member(name) => {
                    let CType::Record(r) = cur else { return Err(self.error(at, format!("`offsetof` member `{name}` of a type that is not a struct or union"))) };
                    let Some((f, t)) = self.field(lv, r, name) else {
                        return Err(self.error(at, format!("`offsetof`: no member `{name}`")));
                    };
                    lv = f;
                    cur = t;
                }
                Either::Index(e) => {
                    let CType::Array(elem, _) = cur else { return Err(self.error(at, "`offsetof` index into a member that is not an array")) };
                    let i = self.rvalue(e)?;
                    lv = Lval::Index(Box::new(lv), Box::new(i));
                    cur = *elem;
                }
            }
        }
        let size_t = IntTy { bits: if self.dm() == DataModel::ILP32 { 32 } else { 64 }, signed: false };
        let ty = CType::Int(size_t, "unsigned long".into());
        Ok(Val { e: Expr::Cast(Ty::Int(size_t), Box::new(Expr::AddrOf(lv))), ty })
    }
}

enum Either<'a> {
    Member(&'a str),
    Index(&'a Node<Expression>),
}

/// The name under which inline assembly is an over-approximated external call.
const ASM: &str = "inline assembly";

impl<'a> Lowerer<'a> {
    /// Inline assembly, a named over-approximation: lowered as calls of an undefined
    /// function `inline assembly`, one per output operand (which gets the call's value) and
    /// one per pointer input (which it may write through), so that it carries the same
    /// approximation as any call the program does not define.
    pub(super) fn inline_asm(&mut self, a: &'a Node<AsmStatement>) -> Result<(), Fatal> {
        let span = self.span(a.span);
        // A compiler barrier or a fence without operands orders memory accesses, which every
        // interleaving the engines explore already keeps in program order.
        let fence = match &a.node {
            AsmStatement::GnuBasic(t) => is_fence(&t.node),
            AsmStatement::GnuExtended(x) => x.outputs.is_empty() && x.inputs.is_empty() && is_fence(&x.template.node),
        };
        if fence {
            return Ok(());
        }
        let AsmStatement::GnuExtended(x) = &a.node else {
            // Basic assembly cannot name the program's objects.
            self.external_call(ASM, &[], span)?;
            return Ok(());
        };
        for i in &x.inputs {
            let ty = self.static_type(&i.node.variable_name.node);
            if matches!(ty, CType::Pointer(_)) {
                self.external_call(ASM, std::slice::from_ref(&i.node.variable_name), span)?;
            } else {
                self.effect(&i.node.variable_name)?;
            }
        }
        if x.outputs.is_empty() && x.inputs.is_empty() {
            self.external_call(ASM, &[], span)?;
        }
        for o in &x.outputs {
            let (lv, ty) = self.lvalue(&o.node.variable_name)?;
            if !ty.is_scalar() {
                self.unsupported(o.span, "inline assembly writing an aggregate operand");
                continue;
            }
            // The call's result has the operand's type, so it covers every value it can take.
            self.prototypes.insert(ASM.into(), crate::frontend::ctypes::Declared { name: Some(ASM.into()), ty: CType::Function, params: Some(Vec::new()), ret: Some(ty.clone()) });
            let v = self.external_call(ASM, &[], span)?;
            self.prototypes.remove(ASM);
            if let Some(v) = v {
                let e = self.convert(v, &ty);
                self.emit(Action::Assign(lv, e), span);
            }
        }
        Ok(())
    }
}

/// An assembly template that only orders memory: empty (a compiler barrier), a fence, a no-op,
/// or x86's locked add of zero to the stack top.
fn is_fence(template: &[String]) -> bool {
    let text: String = template.iter().map(|p| p.trim_matches('"')).collect();
    let norm: String = text.to_ascii_lowercase().replace("\\n", ";").replace("\\t", " ").split_whitespace().collect::<Vec<_>>().join(" ");
    let norm = norm.trim_matches(|c: char| c == ';' || c == ' ');
    matches!(
        norm,
        "" | "mfence" | "lfence" | "sfence" | "nop" | "pause" | "rep; nop" | "rep nop" | "lock; addl $0,0(%%rsp)" | "lock; addl $0,0(%%esp)" | "lock addl $0,0(%%rsp)" | "lock addl $0,0(%%esp)"
    )
}
