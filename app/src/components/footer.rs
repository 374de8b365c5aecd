use leptos::prelude::*;

use crate::i18n::{fill, t, tr, Key};
use crate::state::use_ctx;

#[component]
pub fn Footer() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <footer class="site-footer">
            <p>{t(Key::FooterPrivacy)}</p>
            <p>{t(Key::FooterSources)}</p>
            <p data-testid="catalog-date">{move || fill(tr(ctx.lang(), Key::FooterCatalogDate), &[("date", crate::state::catalog_date().unwrap_or_default().to_string())])}</p>
        </footer>
    }
}
