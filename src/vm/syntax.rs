//! What toolplane does to a snippet's syntax tree before it is compiled: checks (calls to externals
//! that are never awaited, a session rebinding a binding) and rewrites (a fresh snippet becomes the
//! body of `async def __toolplane_main__`; a session snippet's `return` and trailing expression
//! raise `__toolplane_return__(value)`).
//!
//! The tree is the parser's own (`VirtualMachine::compile_module_transformed`), never Python `ast`
//! objects: building, walking and freeing those cost many times the parse and code generation of a
//! large source, all of it native work the in-process engine's time limit cannot stop.

use std::collections::BTreeSet;

use ruff_python_ast::visitor::transformer::{self, Transformer};
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, ExprContext, Stmt};
use ruff_source_file::SourceFile;
use ruff_text_size::{Ranged, TextRange};

/// The name a fresh snippet's code is compiled under: `async def __toolplane_main__():`.
pub(crate) const MAIN_FUNCTION: &str = "__toolplane_main__";

/// What a session snippet's `return value` becomes: `raise __toolplane_return__(value)`.
pub(crate) const RETURN_CARRIER: &str = "__toolplane_return__";

/// A check the snippet failed: the `_toolplane` exception class to raise, and its message.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Rejection {
    pub(crate) class: &'static str,
    pub(crate) message: String,
}

/// Checks a fresh snippet and makes its statements the body of `async def __toolplane_main__()`
/// (an empty snippet gets `pass`), which keeps the snippet's own line numbers. Its leading
/// `from __future__ import …` statements stay at module level, where Python requires them.
pub(crate) fn prepare_fresh(
    module: &mut ast::ModModule,
    source_file: &SourceFile,
    bindings: &[String],
) -> Result<(), Rejection> {
    check_unawaited(&module.body, source_file, bindings, false)?;
    let mut body = std::mem::take(&mut module.body);
    let docstring = usize::from(
        matches!(body.first(), Some(Stmt::Expr(e)) if e.value.is_string_literal_expr()),
    );
    let futures = body[docstring..]
        .iter()
        .take_while(|s| matches!(s, Stmt::ImportFrom(i) if i.module.as_ref().is_some_and(|m| m.id.as_str() == "__future__")))
        .count();
    module
        .body
        .extend(body.drain(docstring..docstring + futures));
    // A name a function or method declares `global` is the snippet's own top-level name in a
    // Python file (module scope); declared global here too, it stays one name rather than a local
    // of `__toolplane_main__` that the function's `global` cannot see.
    let declared = NestedGlobals::of(&body);
    if !declared.is_empty() {
        // A function's scope refuses `global` for a name it annotates; a module's keeps the name.
        let plain = PlainAssignments { names: &declared };
        body.iter_mut().for_each(|stmt| plain.visit_stmt(stmt));
        body.insert(
            0,
            Stmt::Global(ast::StmtGlobal {
                node_index: Default::default(),
                range: TextRange::default(),
                names: declared
                    .into_iter()
                    .map(|name| ast::Identifier::new(name, TextRange::default()))
                    .collect(),
            }),
        );
    }
    if body.is_empty() {
        body.push(Stmt::Pass(ast::StmtPass {
            node_index: Default::default(),
            range: TextRange::default(),
        }));
    }
    let end = body.last().map_or_else(Default::default, Ranged::end);
    let range = TextRange::new(0.into(), end);
    let main = ast::StmtFunctionDef {
        node_index: Default::default(),
        range,
        is_async: true,
        decorator_list: Default::default(),
        name: ast::Identifier::new(MAIN_FUNCTION, TextRange::empty(0.into())),
        type_params: None,
        parameters: Box::new(ast::Parameters {
            range: TextRange::empty(0.into()),
            ..Default::default()
        }),
        returns: None,
        body,
        runtime_decorator_list: None,
        runtime_type_comment: None,
        runtime_type_comment_bytes: None,
        runtime_body: None,
    };
    module.body.push(Stmt::FunctionDef(main));
    Ok(())
}

/// Checks a session snippet (it must not rebind a binding: the assignment would persist) and turns
/// its top-level `return` statements and trailing expression into `raise __toolplane_return__(…)`.
pub(crate) fn prepare_session(
    module: &mut ast::ModModule,
    source_file: &SourceFile,
    bindings: &[String],
) -> Result<(), Rejection> {
    let mut names = ScopeNames::default();
    for stmt in &module.body {
        names.visit_stmt(stmt);
    }
    let taken: Vec<&str> = bindings
        .iter()
        .map(String::as_str)
        .filter(|b| names.bound.contains(*b))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !taken.is_empty() {
        return Err(Rejection {
            class: "NamespaceCollisionError",
            message: format!(
                "the snippet assigns to Toolplane bindings: {}. In a session that assignment would persist \
                 and mask the binding until the session is reset — use different variable names.",
                taken.join(", ")
            ),
        });
    }
    check_unawaited(&module.body, source_file, bindings, true)?;
    if let Some(last) = module.body.last_mut()
        && let Stmt::Expr(expr) = last
    {
        let range = expr.range;
        let value = std::mem::replace(&mut *expr.value, none_at(range));
        *last = raise_return(Some(value), range);
    }
    rewrite_returns(&mut module.body);
    Ok(())
}

/// `raise __toolplane_return__(value)` (`None` without a value), placed at `range`.
fn raise_return(value: Option<Expr>, range: TextRange) -> Stmt {
    let value = value.unwrap_or_else(|| none_at(range));
    let carrier = Expr::Name(ast::ExprName {
        node_index: Default::default(),
        range,
        id: RETURN_CARRIER.into(),
        ctx: ExprContext::Load,
    });
    let call = Expr::Call(ast::ExprCall {
        node_index: Default::default(),
        range_start: range.start(),
        func: Box::new(carrier),
        arguments: ast::Arguments {
            range,
            node_index: Default::default(),
            args: Box::new([value]),
            keywords: Default::default(),
            runtime_args: None,
            runtime_bases: None,
        },
    });
    Stmt::Raise(ast::StmtRaise {
        node_index: Default::default(),
        range,
        exc: Some(Box::new(call)),
        cause: None,
    })
}

fn none_at(range: TextRange) -> Expr {
    Expr::NoneLiteral(ast::ExprNoneLiteral {
        node_index: Default::default(),
        range,
    })
}

/// Replaces every `return` of this scope's statement lists (not those of nested functions and
/// classes) with `raise __toolplane_return__(value)`.
fn rewrite_returns(body: &mut [Stmt]) {
    for stmt in body {
        match stmt {
            Stmt::Return(ret) => {
                let range = ret.range;
                *stmt = raise_return(ret.value.take().map(|v| *v), range);
            }
            Stmt::If(s) => {
                rewrite_returns(&mut s.body);
                for clause in &mut s.elif_else_clauses {
                    rewrite_returns(&mut clause.body);
                }
            }
            Stmt::For(s) => {
                rewrite_returns(&mut s.body);
                rewrite_returns(&mut s.orelse);
            }
            Stmt::While(s) => {
                rewrite_returns(&mut s.body);
                rewrite_returns(&mut s.orelse);
            }
            Stmt::With(s) => rewrite_returns(&mut s.body),
            Stmt::Try(s) => {
                rewrite_returns(&mut s.body);
                for ast::ExceptHandler::ExceptHandler(handler) in &mut s.handlers {
                    rewrite_returns(&mut handler.body);
                }
                rewrite_returns(&mut s.orelse);
                rewrite_returns(&mut s.finalbody);
            }
            Stmt::Match(s) => {
                for case in &mut s.cases {
                    rewrite_returns(&mut case.body);
                }
            }
            _ => {}
        }
    }
}

/// Calls to externals whose result is discarded (an expression statement; in a session not the
/// trailing one, which is the run's value) or stringified inside an f-string: they never run.
fn check_unawaited(
    body: &[Stmt],
    source_file: &SourceFile,
    bindings: &[String],
    session: bool,
) -> Result<(), Rejection> {
    let mut finder = UnawaitedCalls {
        bindings,
        trailing: if session { body.last() } else { None },
        found: Vec::new(),
    };
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    if finder.found.is_empty() {
        return Ok(());
    }
    let source = source_file.to_source_code();
    let mut found: Vec<(usize, &str, &str)> = finder
        .found
        .into_iter()
        .map(|(at, name, reason)| (source.line_index(at.start()).get(), name, reason))
        .collect();
    found.sort_unstable();
    let problems: Vec<String> = found
        .into_iter()
        .map(|(line, name, reason)| {
            format!(
                "call to '{name}' on line {line} is never awaited ({reason}); capability and result-store \
                 calls are async — add `await` (e.g. `handle = await save_result(value)`)"
            )
        })
        .collect();
    Err(Rejection {
        class: "UnawaitedToolCallError",
        message: problems.join("; "),
    })
}

/// The name of the binding `expr` calls directly (`save_result(…)`), if it is one.
fn called_binding<'b>(expr: &Expr, bindings: &'b [String]) -> Option<&'b str> {
    let Expr::Call(call) = expr else { return None };
    let Expr::Name(name) = &*call.func else {
        return None;
    };
    bindings
        .iter()
        .find(|b| b.as_str() == name.id.as_str())
        .map(String::as_str)
}

struct UnawaitedCalls<'a, 'b> {
    bindings: &'b [String],
    trailing: Option<&'a Stmt>,
    found: Vec<(TextRange, &'b str, &'static str)>,
}

impl<'a> Visitor<'a> for UnawaitedCalls<'a, '_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            // Their bodies run later, in scopes of their own.
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
            Stmt::Expr(e) => {
                let trailing = self.trailing.is_some_and(|t| std::ptr::eq(t, stmt));
                if !trailing && let Some(name) = called_binding(&e.value, self.bindings) {
                    self.found
                        .push((e.value.range(), name, "its result is discarded"));
                }
                visitor::walk_stmt(self, stmt);
            }
            _ => visitor::walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if !matches!(expr, Expr::Lambda(_)) {
            visitor::walk_expr(self, expr);
        }
    }

    fn visit_interpolated_string_element(&mut self, element: &'a ast::InterpolatedStringElement) {
        if let ast::InterpolatedStringElement::Interpolation(interpolation) = element
            && let Some(name) = called_binding(&interpolation.expression, self.bindings)
        {
            self.found.push((
                interpolation.expression.range(),
                name,
                "it is stringified inside an f-string",
            ));
        }
        visitor::walk_interpolated_string_element(self, element);
    }
}

/// The names `global` statements declare inside the functions and classes a scope defines (at
/// any depth) and the scope's own statements do not (those are global there already, and whatever
/// Python makes of their place, an assignment before them included, stays as it is).
#[derive(Default)]
struct NestedGlobals {
    depth: usize,
    names: BTreeSet<String>,
    own: BTreeSet<String>,
}

impl NestedGlobals {
    fn of(body: &[Stmt]) -> BTreeSet<String> {
        let mut finder = Self::default();
        for stmt in body {
            finder.visit_stmt(stmt);
        }
        finder.names.difference(&finder.own).cloned().collect()
    }
}

impl<'a> Visitor<'a> for NestedGlobals {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {
                self.depth += 1;
                visitor::walk_stmt(self, stmt);
                self.depth -= 1;
            }
            Stmt::Global(g) => {
                let names = g.names.iter().map(|n| n.id.to_string());
                if self.depth > 0 {
                    self.names.extend(names);
                } else {
                    self.own.extend(names);
                }
            }
            _ => visitor::walk_stmt(self, stmt),
        }
    }

    // Expressions hold no statements (a lambda's body is one expression).
    fn visit_expr(&mut self, _: &'a Expr) {}
}

/// Rewrites a scope's annotated assignments to the `names` (not those of nested functions and
/// classes) as plain ones: `x: int = 0` becomes `x = 0`, and `x: int`, which binds nothing, `pass`.
/// A function does not evaluate its locals' annotations either.
struct PlainAssignments<'n> {
    names: &'n BTreeSet<String>,
}

impl Transformer for PlainAssignments<'_> {
    fn visit_stmt(&self, stmt: &mut Stmt) {
        match stmt {
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
            Stmt::AnnAssign(assign) if matches!(&*assign.target, Expr::Name(n) if self.names.contains(n.id.as_str())) =>
            {
                let range = assign.range;
                *stmt = match assign.value.take() {
                    Some(value) => Stmt::Assign(ast::StmtAssign {
                        node_index: Default::default(),
                        range,
                        targets: vec![std::mem::replace(&mut *assign.target, none_at(range))],
                        value,
                        runtime_targets: None,
                        runtime_type_comment: None,
                        runtime_type_comment_bytes: None,
                    }),
                    None => Stmt::Pass(ast::StmtPass {
                        node_index: Default::default(),
                        range,
                    }),
                };
            }
            _ => transformer::walk_stmt(self, stmt),
        }
    }

    // Expressions hold no statements.
    fn visit_expr(&self, _: &mut Expr) {}
}

/// The names a scope's statements bind: assignment and deletion targets (comprehension targets
/// included), `def` and `class` names, imports, `except … as`, match captures, `global` and
/// `nonlocal` names. Nested functions, classes and lambdas are not entered.
#[derive(Default)]
struct ScopeNames {
    bound: BTreeSet<String>,
}

impl ScopeNames {
    fn add(&mut self, name: &str) {
        self.bound.insert(name.to_string());
    }
}

impl<'a> Visitor<'a> for ScopeNames {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(f) => self.add(&f.name.id),
            Stmt::ClassDef(c) => self.add(&c.name.id),
            Stmt::Global(g) => g.names.iter().for_each(|n| self.add(&n.id)),
            Stmt::Nonlocal(n) => n.names.iter().for_each(|n| self.add(&n.id)),
            _ => visitor::walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Lambda(_) => {}
            Expr::Name(name) if matches!(name.ctx, ExprContext::Store | ExprContext::Del) => {
                self.add(&name.id);
            }
            _ => visitor::walk_expr(self, expr),
        }
    }

    fn visit_alias(&mut self, alias: &'a ast::Alias) {
        match &alias.asname {
            Some(asname) => self.add(&asname.id),
            None => {
                let name = alias.name.id.as_str();
                self.add(name.split('.').next().unwrap_or(name));
            }
        }
    }

    fn visit_except_handler(&mut self, handler: &'a ast::ExceptHandler) {
        let ast::ExceptHandler::ExceptHandler(h) = handler;
        if let Some(name) = &h.name {
            self.add(&name.id);
        }
        visitor::walk_except_handler(self, handler);
    }

    fn visit_pattern(&mut self, pattern: &'a ast::Pattern) {
        match pattern {
            ast::Pattern::MatchAs(p) => {
                if let Some(name) = &p.name {
                    self.add(&name.id);
                }
            }
            ast::Pattern::MatchStar(p) => {
                if let Some(name) = &p.name {
                    self.add(&name.id);
                }
            }
            ast::Pattern::MatchMapping(p) => {
                if let Some(rest) = &p.rest {
                    self.add(&rest.id);
                }
            }
            _ => {}
        }
        visitor::walk_pattern(self, pattern);
    }
}
