#!/usr/bin/env bash
# Prints the gzip -9 size of what a first visit downloads (HTML, JS, wasm, CSS, the
# icon and wasm-bindgen's JS snippets; the catalog is compiled into the wasm) and fails
# above the budget. The other views in views/ (their module and style sheet) load the
# first time one is shown, and the WebGPU measurement in bench/ only when a person starts
# a run, so each is printed on its own and not counted; so are the Chinese strings
# (zh.json), which a page shown in Chinese fetches before it starts.
set -euo pipefail
dist=${1:-dist}
# Raised from 250000 when the answer block, the export and the state layer landed
# (measured 275 KB); to 292000 when the training placement search, diffusion speeds, the
# runtime and steps inputs landed (measured 289,952 B, +7.5 KB); to 296000 when the
# phone's folded form and preset chooser landed (measured 295,450 B, +4.7 KB); lowered to
# 292000 when the Chinese strings moved out of the module into zh.json (measured 291,063
# B with the speech model and the 2026 presets); raised to 295000 when the build began
# writing the default view into index.html (app/src/prerender.rs; index.html 1.3 -> 3.2
# KB, so the answer and the first cards read before the module runs; measured 294,084 B).
# Lowered to 247000 when compare, GPU details, the guide and your GPU moved into their own
# module, loaded the first time one is shown (views/; measured 245,405 B with the scanning
# cards, from 299,753 B); raised to 248000 when an open "More" began staying with its GPU,
# the fit badge joined GPU count and room, and the header menu began closing on a click
# outside (measured 247,896 B); to 249500 when the modules began sharing the fetched
# Chinese strings so a language switch reaches every view at once (measured 248,572 B;
# about 1 KB of headroom); lowered to 249000 when the strings only the views module draws
# (guide, GPU details, compare, your GPU) moved into that module, which paid for the library
# support table and the training-framework field (measured 248,066 B; 248,739 B once the
# answer stopped repeating a GPU's caveats); raised to 249500 when the ranking began
# listing cards off CUDA after the CUDA cards for workloads whose tools are built for CUDA
# first, with a reason for Macs (about 560 B; measured 249,433 B); to 249700 when QLoRA began
# keeping the embeddings and LM head in 16 bits (the models' embedding_matrices) and the
# entry pick began weighing a tight fit against cards that hold the run comfortably
# (measured 249,627 B); to 249800 when GeForce cards' 16-bit matmuls began running at
# the measured share of their peak (estimate::GEFORCE_MATMUL_SHARE; measured 249,736 B).
# Lowered to 240000 when numbers began to be read without the standard library's float
# parser (share::parse_number; about 13 KB of tables), which paid for the answer's
# alternatives (rank::Alternative, about 2.6 KB; measured 239,886 B). Lowered to 235200
# when the JSON and CSV export moved into the views module, which writes them on the first
# click (app::views::export_text; about 5.4 KB), after offloaded cards began saying how
# much system memory they take and cost ranges under a cent began reading "<$0.01"
# (about 0.6 KB; measured 235,102 B). Lowered to 228300 when the page stopped writing
# numbers with the standard library's float formatting (catalog::decimal writes the same
# text; about 7 KB; measured 228,159 B; the views module, 219,418 -> 211,846 B, too).
# Raised to 228800 when the answer began offering LoRA or QLoRA for a fine-tune whose pick
# runs only offloaded to CPU memory (rank::Alternative, Change::Task; measured 228,765 B),
# and to 229000 when training that fits on each GPU began running plain data parallel, said
# so on the card ("runs on 8 GPUs, data parallel") and stopped listing it as a caveat
# (measured 228,876 B; a fresh clone builds a few bytes apart); to 229200 when diffusion
# transformers began paying their eager forward pass's element-wise traffic and INT8
# without INT8 tensor cores began running on DP4A (measured 229,017 B). Lowered to 218100
# when components began returning type-erased views (Leptos's erase_components, set in
# .cargo/config.toml; measured 218,039 B; the views module 212,741 -> 201,865 B too).
# Raised to 218400 when renting, the value pick became the least money for the work and
# said so, rented serving picks began showing their cost per million, and a cost range
# whose ends print alike began reading as one figure (measured 218,325 B); to 218800 when,
# buying, the answer began naming a second GPU's entry pick when it costs at most half the
# entry as entered (rank::CHEAPER_WITH_CHANGE, "Worth a look, with one change"; measured
# 218,694 B); to 219000 when a model served over several GPUs by llama.cpp or Transformers
# began reading as split by layers used in turn rather than tensor parallel (NeedsGpus'
# in_turn; measured 218,880 B); to 219200 when a link's unknown model began being named
# with the model the page shows instead, so no figure reads as if it were for the model
# asked (measured 219,099 B). Lowered to 218000 when LLVM stopped copying functions into
# their callers unless that made the code smaller (-inline-threshold=0 in
# .cargo/config.toml; measured 217,945 B; ranking the whole catalog in the page 0.90 ms,
# as before); to 217400 when the compare, GPU, guide and your-GPU rules of the style sheet
# moved into views/views.css, which the views module adds to the page before it first
# draws (measured 217,293 B); to 216600 when the first view's two style sheets began being
# written into index.html, one response instead of three (measured 216,480 B; first
# contentful paint on the slow phone profile 652 -> 412 ms for the default link); to
# 216800 when, serving a batch, the picks began asking a usable decode speed of each user
# rather than of the batch as a whole (measured 216,655 B). Lowered to 140500 when the
# page's module stopped using Leptos: the header, the advise view and the footer are
# written as HTML by plain functions (app/src/page/) and set into the page, which the
# build's prerender writes with too; Leptos stays in the views module (measured 139,772 B;
# the module's WebAssembly 200,880 -> 123,971 B). Raised to 141000 when each card chose
# its serving runtime from the deployment and named the software its estimate models
# (catalog/src/deploy.rs and the card's line; measured 140,934 B, WebAssembly 125,075 B).
# Raised to 141600 when server modules began being bought in their server or rack units
# (two fields per catalog row, the card's server line, the picks' whole-placement price),
# value and flagship picks their new rules and workstation cards the power cap in all
# compute-bound work (measured 141,525 B, WebAssembly 125,665 B); to 142000 when the memory
# line began saying what context the KV cache holds for how many sequences, and that it is
# the model's default when the link sets none (measured 141,950 B, WebAssembly 126,042 B);
# to 142200 when a rental at a marketplace's lowest ask began saying so (a flag on each
# catalog row and its reason; measured 142,126 B, WebAssembly 126,219 B); to 142500 when
# a purchase of more than two cards began naming the power it draws and the build it
# needs (measured 142,403 B, WebAssembly 126,499 B); to 142700 when the catalog gained the
# Apple M5 Ultra, the Mac sold new today (measured 142,512 B, WebAssembly 126,603 B).
# Lowered to 135500 when the page's module became its own crate (app/shell) with no Leptos
# in its dependency graph, and the views module stopped sharing a crate with it (measured
# 135,185 B, WebAssembly 120,949 B). Raised to 137400 when every link parameter came to be
# declared once in a table read and written through function pointers (share::PARAMS;
# measured 137,179 B, WebAssembly 122,933 B); to 138500 when a typed number the link cannot
# take began marking its field invalid with a line naming the range, and a download that
# fails began saying so in the page rather than in a dialog (measured 138,292 B,
# WebAssembly 123,969 B); to 138700 when the link's notice began listing five lines and
# counting the rest, isolating the link's text, and Chinese strings that cannot be fetched
# began being said in the page (measured 138,489 B, WebAssembly 124,163 B); to 139300 when
# index.html began saying, in both languages, that the page's program could not load
# (index.html 7,514 -> 8,188 B; measured 139,129 B); to 139500 when, without JavaScript, the
# page began saying first that it cannot answer the link and whose answer it shows, in
# both languages (index.html 8,478 B; measured 139,419 B); to 139700 when the GPU page's
# failed notes got a retry, counts began reading as words ("4 GPUs", "19,995") and a
# preset chip began keeping focus through the form's redraw (measured 139,496 B,
# WebAssembly 124,243 B; a fresh clone has built a few bytes apart). Raised to 144500
# when the answer became short on a phone and said more of what a link asks: cards below
# the first twelve show their price and what ranks them lower, those that do not suit and
# those without a price are folded, the GPUs ruled out are folded by reason, the memory
# line says what the first card uses, a link's keys that do nothing are named, the skip
# link and the grade legend, and links relative to the page (measured 144,306 B,
# WebAssembly 128,838 B; the new English strings are about 1 KB of it, gzip); to 146300
# when serving cards and picks began giving each user's pace and the batch field its
# name as users at once, an embedded widget began saying what it answers above it, the
# embed snippet got a Copy button, an origin check and a height bound, and counts of
# one GPU stopped reading "1 GPUs" (measured 146,070 B, WebAssembly 130,568 B); to 146900
# when the build began moving index.html's inline scripts into files of their own, so a
# strict Content-Security-Policy runs the page (two more files, each compressed on its
# own: measured 146,648 B); to 147500 when the link's parameter table began giving the
# export's workload block its names and values, one function per parameter that the page's
# module links with the table (measured 147,274 B, WebAssembly 131,204 B); to 157000 when
# every card began showing the published measurement nearest it: the matching rule
# (`catalog::evidence::nearest`), the engine's estimate of the measured run, reading the
# fetched rows and drawing the line with its source link, and the default view's lines
# written into the page (measured 156,601 B, WebAssembly 140,191 B). The rows themselves
# (`measurements.min.json`, 7.2 KB) are fetched after the answer is drawn. To 158500 when
# each card's "More" began saying how its estimate was made (`estimate::Terms`: a step's
# compute, memory, communication and overheads, the rates and shares assumed; measured
# 158,212 B, WebAssembly 141,544 B); to 158800 when a card without a measurement began
# offering to add one, the form starting from that card (measured 158,407 B, WebAssembly
# 141,722 B); to 159400 when the terms began naming where the matrix rate comes from and
# the stack's factors, and a measured line the model it was measured with (measured
# 158,942 B, WebAssembly 142,125 B, the same on a fresh clone). Raised to 162300 when a
# language model run locally began running on each card in the highest GGUF type that
# fits it (`prec=auto`, catalog/src/quant.rs): six more weight formats with their sizes
# and perplexity costs, the search down the ladder for every card, the type on the card's
# badge, its quality line and the memory line, the form's new options, and a measured
# line without an estimate saying so (measured 162,044 B, WebAssembly 145,012 B; 159,173
# and 142,368 B before); to 165300 when the KV cache's type became an input (`kv`, its
# form field), each local card began saying the longest context it holds and giving the
# command that starts it with a Copy button (catalog/src/command.rs; measured 164,983 B,
# WebAssembly 147,643 B). To 177200 when a model no type fits on a card began running
# with part of it in system memory (catalog/src/estimate/offload.rs: the split search,
# the host's reads in the decode and the prompt's copies, the `host` key and its form
# select, the ladder's offloaded rungs, the card's line and `--n-cpu-moe`/`-ngl` in the
# command; gpt-oss's MXFP4 as released: measured 170,134 B, WebAssembly 152,792 B), when
# each card began being ranked as an addition to the GPUs a person owns (`have`, its
# form select, catalog/src/estimate/mixed.rs, the answer's line on the owned cards alone:
# 173,766 B, WebAssembly 156,434 B), and when measured runs over several cards and with
# part in system memory became estimable for the cards' measured lines and hybrid models'
# caches counted only on their full-attention layers (175,594 B, WebAssembly 158,258 B),
# a card at a model's released format said so (176,015 B, WebAssembly 158,680 B), and an
# addition no faster than the owned cards alone, or of another vendor, said so (176,580 B,
# WebAssembly 159,249 B), and the answer's alternatives began offering more system memory
# (176,785 B, WebAssembly 159,455 B). To 179000 when a bandwidth measured on the
# visitor's card began setting that card's bandwidth-bound estimates (`measured`: the
# key, the factor in `estimate::speed`, the card's and the answer's line, the link's move
# from the your-GPU view; measured 178,797 B, WebAssembly 161,461 B, from 176,731 B and
# 159,390 B at the commit before; no single part over 220 B). To 179300 when offloaded
# cards began stopping the ladder at Q4_K_M, saying so in their type's line, and a
# quantized KV cache began costing the decode the 16-bit cache's time (179,082 B,
# WebAssembly 161,739 B). To 180000 when a card without a measurement of its own GPU
# began showing the same model measured on another GPU (`evidence::nearest_elsewhere`),
# in the page's own default answer too (179,837 B, WebAssembly 162,320 B); WebAssembly to
# 162600 when a GPU the person also owns began being compared as the card alone and the
# field being typed in kept its text (179,893 B, WebAssembly 162,434 B). To 180700 and
# WebAssembly 163250 when torchtune became a framework (`fw=torchtune`: its memory model,
# the paged optimizer state in the placement, the speed and the card, its form option and
# its assumptions line, about 500 B of English text of those): 180,659 B, WebAssembly
# 163,201 B. Its first draft used `f64::clamp`, whose check on its bounds formats floats
# when it fails and so linked the standard library's float formatting: 9.8 KB more.
# To 180800 and WebAssembly 163350 when the assumptions line began naming Megatron-Core's
# and Unsloth's defaults too (two sentences of English: 180,751 B, WebAssembly 163,296 B).
# Reading a row's `-ts` weights with Rust's own float parser had cost 15 KB of tables
# more; it uses `decimal::parse_number`, as every number the page reads does.
# To 180900 and WebAssembly 163500 when the answer and the ranking began being merged into
# the page rather than replaced (the morph in index.html's script, +861 B) and a card's
# "More" began being written only while open (index.html's default view 8,629 -> 7,683 B;
# the click path and the drawn key, WebAssembly +159 B): 180,864 B, WebAssembly 163,466 B.
# A form change reaches the next frame in about 33 ms instead of 45 on the CI machine.
# To 181250 and WebAssembly 163850 when a published diffusion run without fused attention
# began being estimated with its score matrices in memory (`attention: unfused`, the
# UNet's `self_attention` layout in the embedded models): the card's measured line
# compares the engine's estimate of that run, so the page carries it (181,213 B,
# WebAssembly 163,812 B).
# Lowered to 180850 when the page's first script began preloading the views module on a
# link that opens on another view (+320 B) and the build began leaving its lines that are
# only a comment out of the scripts it moves into files (inline script 2,516 -> 2,088 B):
# 180,785 B.
# To 180900 and WebAssembly 163950 when serving got an assumptions line of its own (which
# software each card runs) instead of the training line's (one sentence of English):
# 180,874 B, WebAssembly 163,907 B.
# To 181000 and WebAssembly 164000 when a card's "More" or a fold opened on the written
# page before the module ran stayed open once the app drew it (it had closed again):
# 180,940 B, WebAssembly 163,967 B; the engine's fused-MoE term before it, 35 B.
# To 181050 and WebAssembly 164050 when a card began naming the model of a sibling model's
# run (Qwen3 8B on a Llama 3.1 8B card) also when other things differ: 180,988 B,
# WebAssembly 164,013 B.
# To 181400 and WebAssembly 164400 when a card slower than a usable pace for each user began
# saying so first among its caveats (`too-slow-to-use`: the reason, its two sentences in
# English), and the redraw stopped re-reading the links it had just written and began
# finding the form's fields by id: 181,334 B, WebAssembly 164,356 B.
# To 181700 and WebAssembly 164500 when the page's script began writing the address, at
# most 90 history writes in 30 seconds, since Safari refuses a page's 101st (`__gpuAdvisorWriteUrl`,
# +256 B of inline script; WebAssembly +97 B): 181,687 B, WebAssembly 164,453 B. The
# same limit written in Rust, with its timer, cost 1,110 B.
# To 182600 and WebAssembly 165400 when a rented training job began paying for its
# machine's start-up and, for a fine-tune, fetching the model's weights
# (`estimate::rent_start_hours`: the cost's two new terms, the value pick's tie on the
# hours alone, the card's "counting N min of start-up"): 182,540 B, WebAssembly
# 165,314 B, from 181,687 B and 164,453 B at the commit before.
# To 183600 and WebAssembly 166400 when a link without a batch began training at the
# batch its reference script uses (`workload::default_batch`: 32 images per GPU for image
# classifiers, 8 for encoders and video models; the ranking's settled copy, the form's
# field showing it, the label saying so): 183,524 B, WebAssembly 166,295 B.
# To 183900 and WebAssembly 166700 when a training job longer than about nine months
# began saying so first among a card's caveats and stopped being a value or entry pick
# (`job-too-long`, `rank::LONGEST_USEFUL_JOB_HOURS`; its sentence in English): 183,778 B,
# WebAssembly 166,547 B.
# To 184300 and WebAssembly 167100 when a value lead under `FLAGSHIP_TIE` began going to
# the card with room to grow, then to the higher GGUF type, and such a pick began saying
# how far below the most speed per dollar it is (its sentence in English): 184,190 B,
# WebAssembly 166,980 B.
# To 184700 and WebAssembly 167500 when a pick that won a tie began carrying the share it
# won by (`Pick::tie_share`), so only a tie says so, and a rented value pick that won the
# hours' tie began saying it is within N% of the least money and faster: 184,572 B,
# WebAssembly 167,361 B.
# To 185600 and WebAssembly 168400 when tensor parallelism began holding an MLA model's
# latent cache whole on every GPU, datacenter cards began paying their server's eager
# diffusion step, vLLM's 4-bit experts before Blackwell their weight-only kernels,
# llama.cpp on RDNA 4 its own prompt share, and a pick's speed began being told against
# the flagship it names, a tied flagship saying how far below the fastest it is (its
# sentence in English): 185,481 B, WebAssembly 168,275 B.
# To 186200 and WebAssembly 169000 when a card's share of the fastest candidate began
# being taken over the GPUs the picks choose among (`rank::picks::choosing`) and the
# flagship's tie sentence and the picks' share of it became their own strings: 185,973 B,
# WebAssembly 168,764 B (a fresh clone builds about 60 B more).
# To 186500 and WebAssembly 169300 when the answer began saying first that no GPU keeps a
# usable pace as entered, where a change below does (`answer.all_slow`): 186,191 B,
# WebAssembly 168,991 B.
# To 186700 and WebAssembly 169500 when it began saying so too when every GPU runs the
# work only with another setting than the one asked (`answer.none_as_asked`): 186,309 B,
# WebAssembly 169,098 B.
# To 187100 and WebAssembly 169900 when llama.cpp's prompt on a mixture of experts began
# reading each picked expert once per micro-batch (`estimate::llamacpp_expert_stream_bytes`)
# and vLLM's routed experts their fused kernels' share of the 16-bit peak, with the prompt's
# tensor-parallel all-reduces: 186,939 B, WebAssembly 169,732 B (the budget leaves a fresh
# clone its few bytes more).
# To 187600 and WebAssembly 170250 when a change began drawing the answer and the first
# three cards at once and the rest of the ranking once that frame is painted and the
# browser idle (`cards::Extent::FirstFrame`, `page::rest_after_paint`; the morph's
# `data-partial` and its skip of equal subtrees, +60 B of inline script): 187,445 B,
# WebAssembly 170,095 B. Its first draft made a closure per change for the animation
# frame and another for the idle callback: 672 B of WebAssembly instead of 363.
# To 187800 when typing's address began being written once the frame showing the change
# is painted and the page idle (`__gpuAdvisorWriteUrl`, +20 B of inline script), with the
# MoE slice term, the CDNA 3 bandwidth share, the stated micro-batch's copies and the INT8
# Whisper kernels in the engine (WebAssembly +15 B): 187,612 B, WebAssembly 170,160 B.
# To 188700 and WebAssembly 171300 when a served queue's prompt rate began counting the
# answers' decode steps no prompt chunk hides (`estimate::serving`: vLLM's batch defaults,
# the KV pool's sequences, the steps; the evidence estimate of such a row, which a card's
# measured line runs): 188,474 B, WebAssembly 171,023 B. Its first draft lowered the GPU's
# name to find an A100, which linked the standard library's Unicode case tables: 8.5 KB.
# To 188900 and WebAssembly 171500 when llama.cpp's prompt on Apple GPUs began running
# K-quants at their dequantization share (`stack::metal_prefill_type_share`) and a card's
# measured line began naming SGLang as a stack of its own: 188,651 B, WebAssembly
# 171,193 B.
# To 190000 and WebAssembly 172600 when a bought server began serving on all its GPUs,
# copies of the model sharing the users where that is faster (the search in
# `rank::evaluate`, the card's sentence), and a card's measured neighbour began matching
# its offload and preferring its own model: 189,745 B, WebAssembly 172,363 B. The search's
# first draft, written with iterator adapters, cost 1.4 KB more.
# To 190700 and WebAssembly 173300 when a GGUF type that fits but decodes slower than people
# read began giving way to a lower one that does not, or to the fastest at 4 bits or more,
# and the card began saying why (`rank::evaluate`'s rung search, `Reason::Quantized`'s
# `paced`, its sentence in English): 190,621 B, WebAssembly 173,240 B. Its first draft
# kept the placement and the pace in two closures: 0.35 KB more.
# To 191000 and WebAssembly 173600 when a mixture of experts trained in full began paying
# its experts at the 16-bit rate under FP8, routing's fixed time per layer and, under
# Megatron-Core, only its own experts' gradients (`estimate::MOE_LAYER_FIXED_S`,
# `MOE_EXPERT_FP8_SPEEDUP`): 190,890 B, WebAssembly 173,515 B.
# To 191500 and WebAssembly 174000 when a served model began loading its checkpoint in the
# format it is published in (`Model::checkpoint`, `deploy::loads_checkpoint`, the search in
# `rank::evaluate`: DeepSeek-V3's FP8, gpt-oss's MXFP4) and the card's released-format
# sentence began covering FP8, and a checkpoint published in FP8 stopped being given vLLM's
# `--quantization fp8`: 191,399 B, WebAssembly 173,922 B.
# To 191800 and WebAssembly 174300 when an image model whose 16-bit weights do not fit a
# card began running there with 8-bit weights multiplied in 16 (`rank::evaluate`'s
# `eight_bit_images`, `Reason::Quantized`'s `images` and its sentence in English), and a
# card's estimate of one image or sample stopped reading "1 images": 191,676 B,
# WebAssembly 174,201 B.
# To 192100 and WebAssembly 174600 when a served language model whose 16-bit checkpoint
# does not fit began running in FP8 as vLLM loads it, else 4-bit weights
# (`rank::evaluate`'s `served_quantized`, `Reason::Quantized`'s `by`, two sentences of
# English): 191,996 B, WebAssembly 174,528 B.
# To 192400 and WebAssembly 174900 when, no card running a model at 4 bits or more, the
# cards that need nothing added began coming first in the ranking and the picks, and the
# answer began offering the change that runs it at 4 bits, under its own heading
# (`rank::first_pick_below_floor`): 192,288 B, WebAssembly 174,818 B.
# To 192800 and WebAssembly 175200 when a datacenter card vLLM serves began running 4-bit
# weights under vLLM (192,357 B), and a card's measured line began naming a llama.cpp run
# on another backend than the vendor's own, which the estimate models ("Vulkan":
# `evidence::Difference::Backend`), and preferring one on its own: 192,676 B,
# WebAssembly 175,116 B.
# WebAssembly to 175300 when llama.cpp's decode on NVIDIA's GDDR cards began paying its
# CUDA-graph step and a fixed time per expert layer, after 8-bit diffusion weights began
# paying their cast (175,176 B on a fresh clone; the whole first visit 192,500 B, the
# default view's written answer having changed).
# To 194000 and WebAssembly 176700 when each published row began being estimated with the
# llama.cpp features its build had by its date (two more fields in every workload the
# page builds: `Workload::built`, `cuda_backend`; the CUDA-graph gate by architecture and
# date, the MMQ kernels' INT8 speed-up): 193,837 B, WebAssembly 176,512 B. To 194100 when
# convolution nets on TPUs began keeping a share of their element-wise traffic and
# llama.cpp's decode on GPUs without DP4A began being bound by its dot products (and the
# default view's written answer changed with 35 new measurement rows): 193,900 B,
# WebAssembly 176,573 B. To 194200 and WebAssembly 176800 when the answer's "allow more
# GPUs" alternative began naming the first build that uses them rather than the first card
# (194,009 B, WebAssembly 176,687 B). To 194700 and WebAssembly 177350 when Transformers'
# gpt-oss began reading every expert in 16 bits (a flag in each model row) and a partial
# `-ngl` split the LM head from system memory (194,214 B, WebAssembly 176,886 B), and a
# LocalScore row's estimate began being the mean of its nine tests, for the cards'
# measured lines (194,602 B, WebAssembly 177,272 B).
budget=${SIZE_BUDGET_BYTES:-194700}
# The first visit's WebAssembly on its own, the part that has to load and run before the
# page answers a link: set with the budget above, with the same reasons.
wasm_budget=${WASM_BUDGET_BYTES:-177350}
# What a link that opens on compare downloads (the first visit and the views module):
# 469,308 B when first budgeted, against the 240,000 B the design asks for; a guard
# against growth until the views module stops carrying the engine and the catalog. To
# 471700 with the served queue's decode steps (471,040 B); to 473800 with the servers'
# copies of the model and the offload-matched neighbour, which both modules carry
# (473,461 B); to 475100 with the type that gives way to a readable pace (475,000 B); to
# 475800 with the experts' training terms (475,606 B here, 475,677 B on a fresh clone); to
# 476800 with the checkpoints served as released (476,616 B); to 477300 with image models'
# 8-bit weights (477,109 B here, 477,218 B on a fresh clone); to 477500 when the precision
# field's auto option began saying the weights are chosen per card (477,226 B); to 478000
# with served models quantized where 16 bits do not fit (477,834 B); to 478600 with the
# change that runs a model at 4 bits (478,475 B); to 479200 with the measured line's
# backend (479,036 B); to 479500 with 8-bit diffusion weights' cast and llama.cpp's
# CUDA-graph decode step on GDDR cards (479,268 B on a fresh clone); to 479800 with the
# fused MoE kernels' time on Instinct, the A770's SYCL decode share and the rows fitted on
# a backend, which the accuracy page names (479,570 B on a fresh clone); to 482400 with
# the build dates of llama.cpp rows, which both modules carry (482,133 B); to 482600 with
# the TPU convolution traffic and the decode without DP4A (482,419 B); to 483650 with
# gpt-oss's experts under Transformers, the LM head of a partial split and LocalScore's
# nine tests (483,568 B; 483,646 B on a fresh clone once the MoE fixed time's two tests
# became one, so to 483800 for a fresh clone's few bytes of spread).
compare_budget=${COMPARE_BUDGET_BYTES:-483800}

# Lists the gzip sizes of the web files under "$dist/$1" (or all of "$dist" but
# bench/ and views/ when $1 is empty) and prints their sum last.
measure() {
  local sum=0 bytes f
  while IFS= read -r f; do
    bytes=$(gzip -9 -c "$f" | wc -c)
    printf '  %8d B  %s\n' "$bytes" "${f#"$dist"/}"
    sum=$((sum + bytes))
  done < <(
    if [[ -n $1 ]]; then find "$dist/$1" -type f; else find "$dist" \( -path "$dist/measure" -o -path "$dist/views" \) -prune -o -type f -print; fi |
      grep -E '\.(html|js|wasm|css|svg)$' | sort
  )
  echo "$sum"
}

report=$(measure "")
echo "$report" | sed '$d'
total=$(echo "$report" | tail -n 1)
printf 'first-visit size (gzip -9): %d B of %d B budget\n' "$total" "$budget"
wasm=$(echo "$report" | grep -E '\.wasm$' | awk '{ sum += $1 } END { print sum + 0 }')
printf 'of which WebAssembly: %d B of %d B budget\n' "$wasm" "$wasm_budget"
if [[ -f "$dist/measurements.min.json" ]]; then
  printf "the cards' published measurements, fetched after the answer is drawn (gzip -9): %d B\n" "$(gzip -9 -c "$dist/measurements.min.json" | wc -c)"
fi
if [[ -f "$dist/zh.json" ]]; then
  printf 'Chinese strings, loaded when the page is shown in Chinese (gzip -9): %d B\n' "$(gzip -9 -c "$dist/zh.json" | wc -c)"
fi
if [[ -d "$dist/views" ]]; then
  report=$(measure views)
  echo "$report" | sed '$d'
  views=$(echo "$report" | tail -n 1)
  printf 'other views, loaded the first time one is shown (gzip -9): %d B\n' "$views"
  # A shared comparison link (or an embedded compare) downloads the first visit and the
  # views module; a GPU page also fetches gpus.json for its notes and sources.
  compare=$((total + views))
  printf 'a link that opens on compare downloads (gzip -9): %d B of %d B budget\n' "$compare" "$compare_budget"
  if ((compare > compare_budget)); then
    echo "compare link size budget exceeded" >&2
    exit 1
  fi
  if [[ -f "$dist/gpus.json" ]]; then
    printf 'a link that opens on a GPU page downloads (gzip -9): %d B\n' "$((total + views + $(gzip -9 -c "$dist/gpus.json" | wc -c)))"
  fi
fi
if [[ -d "$dist/measure" ]]; then
  report=$(measure measure)
  echo "$report" | sed '$d'
  printf 'measurement module, loaded only when a run starts (gzip -9): %d B\n' "$(echo "$report" | tail -n 1)"
fi
if ((total > budget)); then
  echo "size budget exceeded" >&2
  exit 1
fi
if ((wasm > wasm_budget)); then
  echo "WebAssembly size budget exceeded" >&2
  exit 1
fi
