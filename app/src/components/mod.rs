pub mod chart;
pub mod details;
pub mod embed;
pub mod footer;
pub mod header;
pub mod notice;
pub mod rank_card;
pub mod share_bar;
