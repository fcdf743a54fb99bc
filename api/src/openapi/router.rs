//! `ApiRouter`: the only way a route enters the API. Registering a handler records the operation
//! (method, path, summary, and how to describe the handler's signature) beside the axum route, so
//! the router and the OpenAPI document are the same list.

use axum::handler::Handler;
use axum::routing::{delete, get, post, put, MethodRouter};
use axum::Router;

use super::describe::{DescribeHandler, OpDoc};
use crate::AppState;

/// One registered operation.
#[derive(Clone, Copy)]
pub struct Operation {
    pub method: &'static str,
    pub path: &'static str,
    pub summary: &'static str,
    pub(super) describe: fn(&mut OpDoc),
}

#[derive(Default)]
pub struct ApiRouter {
    router: Router<AppState>,
    operations: Vec<Operation>,
}

macro_rules! methods {
    ($($name:ident => $method:literal, $routing:ident;)*) => {$(
        pub fn $name<H, T>(self, path: &'static str, summary: &'static str, handler: H) -> Self
        where
            H: Handler<T, AppState> + DescribeHandler<T>,
            T: 'static,
        {
            let describe = <H as DescribeHandler<T>>::describe;
            self.add($method, path, summary, $routing(handler), describe)
        }
    )*};
}

impl ApiRouter {
    pub fn new() -> Self {
        Self::default()
    }

    methods! {
        get => "GET", get;
        post => "POST", post;
        put => "PUT", put;
        delete => "DELETE", delete;
    }

    fn add(
        mut self,
        method: &'static str,
        path: &'static str,
        summary: &'static str,
        route: MethodRouter<AppState>,
        describe: fn(&mut OpDoc),
    ) -> Self {
        self.router = self.router.route(path, route);
        self.operations.push(Operation {
            method,
            path,
            summary,
            describe,
        });
        self
    }

    pub fn merge(mut self, other: ApiRouter) -> Self {
        self.router = self.router.merge(other.router);
        self.operations.extend(other.operations);
        self
    }

    pub fn operations(&self) -> &[Operation] {
        &self.operations
    }

    pub fn into_router(self) -> Router<AppState> {
        self.router
    }
}
