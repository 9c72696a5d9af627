//! The entry points of a program without a whole program (`--no-whole-program`): the
//! functions a driver's clients call. A function that another one calls is a helper, reached
//! through its callers; a function whose address is stored (an ops table such as
//! `file_operations`) is called by the clients through the table.

use hashbrown::HashSet;
use lang_c::ast::*;
use lang_c::span::Span as LSpan;
use lang_c::visit::Visit;

/// How the translation unit uses its functions.
#[derive(Default, Debug)]
pub(super) struct Uses {
    /// Functions called directly by another function.
    pub called: HashSet<String>,
    /// Functions whose name is used as a value, other than as a start routine passed to
    /// `pthread_create` (the program then creates those threads itself).
    pub stored: HashSet<String>,
    /// Functions defined `static` (internal linkage: no client calls them by name).
    pub internal: HashSet<String>,
}

/// Collects how `unit` uses the functions `is_function` names.
pub(super) fn uses(unit: &TranslationUnit, is_function: &dyn Fn(&str) -> bool) -> Uses {
    struct V<'f> {
        uses: Uses,
        current: Option<String>,
        is_function: &'f dyn Fn(&str) -> bool,
    }
    impl<'ast> Visit<'ast> for V<'_> {
        fn visit_function_definition(&mut self, f: &'ast FunctionDefinition, span: &'ast LSpan) {
            let name = declarator_name(&f.declarator.node);
            let is_static = f.specifiers.iter().any(|s| matches!(&s.node, DeclarationSpecifier::StorageClass(c) if c.node == StorageClassSpecifier::Static));
            if let (Some(n), true) = (&name, is_static) {
                self.uses.internal.insert(n.clone());
            }
            let outer = std::mem::replace(&mut self.current, name);
            lang_c::visit::visit_function_definition(self, f, span);
            self.current = outer;
        }
        fn visit_call_expression(&mut self, c: &'ast CallExpression, _: &'ast LSpan) {
            let callee = match &c.callee.node {
                Expression::Identifier(id) => Some(id.node.name.as_str()),
                e => {
                    self.visit_expression(e, &c.callee.span);
                    None
                }
            };
            if let Some(n) = callee {
                if (self.is_function)(n) && self.current.as_deref() != Some(n) {
                    self.uses.called.insert(n.to_string());
                }
            }
            for (k, a) in c.arguments.iter().enumerate() {
                if k == 2 && callee == Some("pthread_create") && start_routine(&a.node).is_some_and(|n| (self.is_function)(n)) {
                    continue;
                }
                self.visit_expression(&a.node, &a.span);
            }
        }
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast LSpan) {
            if let Expression::Identifier(id) = e {
                if (self.is_function)(&id.node.name) {
                    self.uses.stored.insert(id.node.name.clone());
                }
            }
            lang_c::visit::visit_expression(self, e, span);
        }
    }
    let mut v = V { uses: Uses::default(), current: None, is_function };
    v.visit_translation_unit(unit);
    v.uses
}

/// The function a start-routine argument names: `f`, `&f`, or either under casts.
fn start_routine(e: &Expression) -> Option<&str> {
    match e {
        Expression::Identifier(id) => Some(&id.node.name),
        Expression::Cast(c) => start_routine(&c.node.expression.node),
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => start_routine(&u.node.operand.node),
        _ => None,
    }
}

fn declarator_name(d: &Declarator) -> Option<String> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some(id.node.name.clone()),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}
