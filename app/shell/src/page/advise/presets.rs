//! Ready-made workloads: the seed article's scenarios and popular models.

use super::*;

/// Ready-made workloads: the seed's scenarios and popular models.
pub fn presets() -> Vec<(Key, Workload)> {
    let model = |id: &str| ModelChoice::Preset(id.into());
    let d = Workload::default;
    vec![
        (
            Key::PresetQlora8b,
            Workload {
                task: Task::Qlora,
                model: model("llama-3.1-8b"),
                seq: Some(2048),
                batch: 4,
                batch_given: true,
                ..d()
            },
        ),
        (
            Key::PresetServe70b,
            Workload {
                task: Task::Infer,
                model: model("llama-3.1-70b"),
                precision: Precision::Int4,
                gpus: 4,
                ..d()
            },
        ),
        (
            Key::PresetResnet,
            Workload {
                task: Task::Train,
                model: model("resnet-50"),
                batch: 256,
                batch_given: true,
                samples: Some(1_281_167),
                epochs: 90.0,
                ..d()
            },
        ),
        (
            Key::PresetSdxl,
            Workload {
                task: Task::Infer,
                model: model("sdxl"),
                precision: Precision::Fp16,
                ..d()
            },
        ),
        (
            Key::PresetDebug,
            Workload {
                task: Task::Lora,
                model: model("mistral-7b"),
                seq: Some(1024),
                batch: 1,
                batch_given: true,
                samples: Some(2_000),
                ..d()
            },
        ),
        (
            Key::PresetLongRun,
            Workload {
                task: Task::Train,
                model: model("vit-l-16"),
                batch: 64,
                batch_given: true,
                samples: Some(1_281_167),
                epochs: 30.0,
                gpus: 8,
                ..d()
            },
        ),
        (
            Key::PresetMedical,
            Workload {
                task: Task::Train,
                model: model("unet-3d"),
                batch: 2,
                batch_given: true,
                samples: Some(1_000),
                epochs: 100.0,
                ..d()
            },
        ),
        (
            Key::PresetVideo,
            Workload {
                task: Task::Finetune,
                model: model("videomae-large"),
                batch: 8,
                batch_given: true,
                samples: Some(10_000),
                epochs: 10.0,
                ..d()
            },
        ),
        (
            Key::PresetNlp,
            Workload {
                task: Task::Finetune,
                model: model("bert-base"),
                seq: Some(128),
                batch: 32,
                batch_given: true,
                samples: Some(100_000),
                epochs: 3.0,
                ..d()
            },
        ),
    ]
}
