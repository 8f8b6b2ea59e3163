use axum::extract::State;
use hibiki_common::error::FieldCode;
use hibiki_common::infra::storage::{AdminStats, AdminUser as AdminUserRow};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::AdminUser;
use crate::error::{ApiError, ApiResult};
use crate::extract::ApiQuery;
use crate::routes::Answer;
use crate::state::AppState;

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// 1-based page, default 1
    pub page: Option<i64>,
    /// 1 to 100, default 50
    pub per_page: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct UserPage {
    pub users: Vec<AdminUserRow>,
    pub page: i64,
    pub per_page: i64,
    pub total: i64,
}

/// Counts for the admin dashboard.
#[utoipa::path(get, path = "/api/admin/stats", tag = "admin", responses((status = 200, body = AdminStats), (status = 403)))]
pub async fn stats(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<Answer<AdminStats>> {
    let depth = state.queues.depth().await.unwrap_or(-1);
    Ok(Answer(state.store.db.admin_stats(state.clock.now(), depth).await?))
}

/// Users with reminder counts and last activity (never reminder contents).
#[utoipa::path(get, path = "/api/admin/users", params(PageQuery), tag = "admin", responses((status = 200, body = UserPage), (status = 403)))]
pub async fn users(State(state): State<AppState>, _admin: AdminUser, ApiQuery(q): ApiQuery<PageQuery>) -> ApiResult<Answer<UserPage>> {
    let page = q.page.unwrap_or(1);
    let per_page = q.per_page.unwrap_or(50);
    if !(1..=1_000_000).contains(&page) {
        return Err(ApiError::field(
            "page",
            FieldCode::OutOfRange.because("page must be between 1 and 1000000").with("min", 1).with("max", 1_000_000),
        ));
    }
    if !(1..=100).contains(&per_page) {
        return Err(ApiError::field(
            "per_page",
            FieldCode::OutOfRange.because("per_page must be between 1 and 100").with("min", 1).with("max", 100),
        ));
    }
    let (users, total) = state.store.db.admin_users(page, per_page).await?;
    Ok(Answer(UserPage { users, page, per_page, total }))
}
