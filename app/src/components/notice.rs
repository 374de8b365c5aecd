use catalog::share::IgnoreReason;
use leptos::prelude::*;

use catalog::rank::resolve_model;
use catalog::Catalog;

use crate::i18n::{fill, t, tr, Key};
use crate::state::use_ctx;

fn reason_key(reason: &IgnoreReason) -> Key {
    match reason {
        IgnoreReason::UnknownParameter => Key::NoticeUnknownParameter,
        IgnoreReason::InvalidValue => Key::NoticeInvalidValue,
        IgnoreReason::UnknownGpu => Key::NoticeUnknownGpu,
        IgnoreReason::UnknownModel => Key::NoticeUnknownModel,
        IgnoreReason::BadEncoding => Key::NoticeBadEncoding,
        IgnoreReason::Repeated => Key::NoticeRepeated,
        IgnoreReason::TooMany => Key::NoticeTooMany,
    }
}

/// Names what the link held that could not be used; never blocks the page.
/// Values are shown as text, never as HTML. A model the catalog does not have also names
/// the model the page shows instead, so no figure reads as if it were for the one asked.
#[component]
pub fn Notice() -> impl IntoView {
    let ctx = use_ctx();
    let lang = move || ctx.lang();
    view! {
        <Show when=move || ctx.ignored.with(|i| !i.is_empty())>
            <aside class="notice" data-testid="notice" role="status">
                <p>{t(Key::NoticeHeading)}</p>
                <ul>
                    {move || ctx.ignored.get().into_iter().map(|i| {
                        let shown = if i.value.is_empty() { i.key.clone() } else { format!("{}={}", i.key, i.value) };
                        let model = ctx.inputs.with(|(w, _)| resolve_model(Catalog::embedded(), w).name);
                        let reason = fill(tr(lang(), reason_key(&i.reason)), &[("model", model)]);
                        view! { <li><code>{shown}</code>" — "{reason}</li> }
                    }).collect_view()}
                </ul>
                <button class="tool" on:click=move |_| ctx.ignored.set(Vec::new())>
                    {t(Key::NoticeDismiss)}
                </button>
            </aside>
        </Show>
    }
}
