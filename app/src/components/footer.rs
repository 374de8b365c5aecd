use leptos::prelude::*;

use crate::i18n::{t, Key};

#[component]
pub fn Footer() -> impl IntoView {
    view! {
        <footer class="site-footer">
            <p>{t(Key::FooterPrivacy)}</p>
            <p>{t(Key::FooterSources)}</p>
        </footer>
    }
}
