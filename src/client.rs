//! The page's side of the Web Worker: starts it, queues requests until it says it is ready,
//! hands replies to one callback, and can stop it mid-job (cancel) and start a fresh one.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, ArrayBuffer, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, MessageEvent, Url, Worker};

use crate::protocol::{Reply, Request};

/// What the page does with each reply and the bytes posted beside it (none for most replies).
pub type OnReply = Rc<dyn Fn(Reply, Vec<Uint8Array>)>;

struct Running {
    worker: Worker,
    is_ready: bool,
    /// Set when the worker reported an uncaught error: its engine may be in a broken state, so
    /// the next request goes to a fresh worker.
    is_broken: bool,
    queue: Vec<(String, Array)>,
    // Kept alive as long as the worker.
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

/// A handle on the engine's worker. Cloning shares the worker.
#[derive(Clone)]
pub struct WorkerClient {
    running: Rc<RefCell<Option<Running>>>,
    on_reply: OnReply,
}

impl WorkerClient {
    /// Starts the worker.
    pub fn new(on_reply: OnReply) -> WorkerClient {
        let client = WorkerClient {
            running: Rc::new(RefCell::new(None)),
            on_reply,
        };
        client.spawn();
        client
    }

    /// Sends a request with the blobs it names (in order).
    pub fn send(&self, request: &Request, blobs: &[Blob]) {
        let text = serde_json::to_string(request).expect("requests serialise");
        let blob_array: Array = blobs.iter().collect();
        let is_usable = self
            .running
            .borrow()
            .as_ref()
            .is_some_and(|running| !running.is_broken);
        if !is_usable {
            self.restart();
        }
        let mut running = self.running.borrow_mut();
        let Some(running) = running.as_mut() else {
            return;
        };
        if running.is_ready {
            post(&running.worker, &text, &blob_array);
        } else {
            running.queue.push((text, blob_array));
        }
    }

    /// Stops whatever the worker is doing (and forgets its analysis) and starts a new one.
    pub fn restart(&self) {
        if let Some(running) = self.running.borrow_mut().take() {
            running.worker.terminate();
        }
        self.spawn();
    }

    fn spawn(&self) {
        let worker = match new_worker() {
            Ok(worker) => worker,
            Err(message) => {
                (self.on_reply)(Reply::Failed { job: 0, message }, Vec::new());
                return;
            }
        };
        let running = Rc::downgrade(&self.running);
        let on_reply = self.on_reply.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            // A reply is a JSON string, or [string, [ArrayBuffer…]] when it carries bytes.
            let data = event.data();
            let (text, buffers) = if let Some(text) = data.as_string() {
                (text, Vec::new())
            } else if Array::is_array(&data) {
                let parts = Array::from(&data);
                let buffers = Array::from(&parts.get(1))
                    .iter()
                    .filter_map(|buffer| buffer.dyn_into::<ArrayBuffer>().ok())
                    .map(|buffer| Uint8Array::new(&buffer))
                    .collect();
                (parts.get(0).as_string().unwrap_or_default(), buffers)
            } else {
                return;
            };
            let reply = match serde_json::from_str::<Reply>(&text) {
                Ok(reply) => reply,
                Err(error) => Reply::Failed {
                    job: 0,
                    message: format!("unreadable reply from the worker: {error}"),
                },
            };
            if reply == Reply::Ready {
                if let Some(running) = running.upgrade() {
                    if let Some(running) = running.borrow_mut().as_mut() {
                        running.is_ready = true;
                        for (text, blobs) in running.queue.drain(..) {
                            post(&running.worker, &text, &blobs);
                        }
                    }
                }
                return;
            }
            on_reply(reply, buffers);
        });
        let on_reply = self.on_reply.clone();
        let on_error =
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |event: web_sys::ErrorEvent| {
                on_reply(
                    Reply::Failed {
                        job: 0,
                        message: format!("the engine stopped: {}", event.message()),
                    },
                    Vec::new(),
                );
            });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *self.running.borrow_mut() = Some(Running {
            worker,
            is_ready: false,
            is_broken: false,
            queue: Vec::new(),
            _on_message: on_message,
            _on_error: on_error,
        });
    }
}

fn post(worker: &Worker, text: &str, blobs: &Array) {
    let message: Array = [JsValue::from_str(text), blobs.into()].iter().collect();
    // Fails only for values that cannot be cloned; strings and blobs always can.
    let _ = worker.post_message(&message);
}

/// Starts `worker.js` (built by Trunk beside the page) relative to the page's base URL, so the
/// site works under any path.
fn new_worker() -> Result<Worker, String> {
    let document = web_sys::window()
        .and_then(|window| window.document())
        .ok_or("no document")?;
    let base = document.base_uri().ok().flatten().ok_or("no base URL")?;
    let script = Url::new_with_base("worker.js", &base)
        .map_err(|_| "bad base URL")?
        .href();
    let wasm = Url::new_with_base("worker_bg.wasm", &base)
        .map_err(|_| "bad base URL")?
        .href();
    let source = format!(
        "importScripts({});wasm_bindgen({{module_or_path:{}}});",
        serde_json::to_string(&script).expect("strings serialise"),
        serde_json::to_string(&wasm).expect("strings serialise")
    );
    let parts: Array = [JsValue::from_str(&source)].iter().collect();
    let options = BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "could not make the worker's loader")?;
    let url =
        Url::create_object_url_with_blob(&blob).map_err(|_| "could not make the worker's URL")?;
    // The loader URL is not revoked: the worker fetches it after this returns.
    Worker::new(&url).map_err(|_| "this browser could not start a Web Worker".to_string())
}
