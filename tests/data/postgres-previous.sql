--
-- PostgreSQL database dump
--

\restrict dpIYOU2c5FTFDDbtt0axEa44wZqGyjoAW5jdMchys7SurQPhb7HZf2Em3Ov6rlP

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: account_games; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account_games (
    account_id text NOT NULL,
    game_id text NOT NULL,
    player text NOT NULL
);


--
-- Name: accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accounts (
    account_id text NOT NULL,
    name text NOT NULL,
    name_key text NOT NULL,
    password_hash text NOT NULL,
    created_at double precision NOT NULL,
    disabled boolean DEFAULT false NOT NULL,
    deleted boolean DEFAULT false NOT NULL
);


--
-- Name: creators; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.creators (
    game_id text NOT NULL,
    address text NOT NULL
);


--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    game_id text NOT NULL,
    seq integer NOT NULL,
    body text NOT NULL
);


--
-- Name: games; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.games (
    game_id text NOT NULL,
    created_at double precision NOT NULL,
    record text NOT NULL,
    progress text NOT NULL,
    phase text NOT NULL,
    map_key text NOT NULL,
    lock_key bigint NOT NULL,
    epoch bigint DEFAULT 0 NOT NULL,
    owner text,
    clocked boolean DEFAULT false NOT NULL,
    handed_over boolean DEFAULT false NOT NULL,
    summary text,
    closed boolean DEFAULT false NOT NULL
);


--
-- Name: maps; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.maps (
    map_key text NOT NULL,
    body text NOT NULL
);


--
-- Name: nodes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.nodes (
    node_id text NOT NULL,
    public_url text NOT NULL,
    backend_pid integer,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    heartbeat timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: pending_commits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pending_commits (
    id bigint NOT NULL,
    game_id text NOT NULL,
    player text NOT NULL,
    step integer NOT NULL,
    seq integer NOT NULL
);


--
-- Name: pending_commits_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.pending_commits_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: pending_commits_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.pending_commits_id_seq OWNED BY public.pending_commits.id;


--
-- Name: pending_orders; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pending_orders (
    id bigint NOT NULL,
    game_id text NOT NULL,
    player text NOT NULL,
    step integer NOT NULL,
    "position" integer NOT NULL,
    body text
);


--
-- Name: pending_orders_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.pending_orders_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: pending_orders_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.pending_orders_id_seq OWNED BY public.pending_orders.id;


--
-- Name: requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.requests (
    game_id text NOT NULL,
    request_id text NOT NULL,
    step integer NOT NULL,
    reply text NOT NULL,
    player text DEFAULT ''::text NOT NULL
);


--
-- Name: risc_schema; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.risc_schema (
    version integer NOT NULL,
    readable_from integer DEFAULT 1 NOT NULL,
    release text
);


--
-- Name: sessions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sessions (
    token_hash text NOT NULL,
    account_id text NOT NULL,
    created_at double precision NOT NULL,
    last_used_at double precision NOT NULL,
    expires_at double precision NOT NULL,
    client text,
    ended_at double precision
);


--
-- Name: signin_failures; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.signin_failures (
    name_key text NOT NULL,
    failures integer NOT NULL,
    locked_until double precision NOT NULL
);


--
-- Name: pending_commits id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pending_commits ALTER COLUMN id SET DEFAULT nextval('public.pending_commits_id_seq'::regclass);


--
-- Name: pending_orders id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pending_orders ALTER COLUMN id SET DEFAULT nextval('public.pending_orders_id_seq'::regclass);


--
-- Data for Name: account_games; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.account_games (account_id, game_id, player) FROM stdin;
\.


--
-- Data for Name: accounts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.accounts (account_id, name, name_key, password_hash, created_at, disabled, deleted) FROM stdin;
\.


--
-- Data for Name: creators; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.creators (game_id, address) FROM stdin;
bf4315	127.0.0.1
8b0bf7	127.0.0.1
\.


--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.events (game_id, seq, body) FROM stdin;
bf4315	1	{"seq":1,"change":1,"event":{"kind":"game_created"}}
bf4315	2	{"seq":2,"change":2,"event":{"player":"ann","kind":"player_joined"}}
8b0bf7	1	{"seq":1,"change":1,"event":{"kind":"game_created"}}
8b0bf7	2	{"seq":2,"change":2,"event":{"player":"ann","kind":"player_joined"}}
8b0bf7	3	{"seq":3,"change":3,"event":{"player":"bob","kind":"player_joined"}}
8b0bf7	4	{"seq":4,"change":4,"event":{"player":"cyd","kind":"player_joined"}}
8b0bf7	5	{"seq":5,"change":4,"event":{"players":["ann","bob","cyd"],"kind":"game_started"}}
8b0bf7	6	{"seq":6,"change":5,"event":{"player":"ann","turn":0,"kind":"player_committed"}}
8b0bf7	7	{"seq":7,"change":6,"event":{"player":"bob","turn":0,"kind":"player_committed"}}
8b0bf7	8	{"seq":8,"change":7,"event":{"player":"cyd","turn":0,"kind":"player_committed"}}
8b0bf7	9	{"seq":9,"change":7,"event":{"turn":0,"orders":{"ann":[{"territory":"Midkemia","units":30,"kind":"place"}],"bob":[{"territory":"Gondor","units":30,"kind":"place"}],"cyd":[{"territory":"Elantris","units":30,"kind":"place"}]},"step":0,"kind":"orders_revealed"}}
8b0bf7	10	{"seq":10,"change":7,"event":{"player":"ann","territory":"Midkemia","units":30,"kind":"units_placed"}}
8b0bf7	11	{"seq":11,"change":7,"event":{"player":"bob","territory":"Gondor","units":30,"kind":"units_placed"}}
8b0bf7	12	{"seq":12,"change":7,"event":{"player":"cyd","territory":"Elantris","units":30,"kind":"units_placed"}}
8b0bf7	13	{"seq":13,"change":7,"event":{"turn":1,"kind":"turn_started"}}
8b0bf7	14	{"seq":14,"change":7,"event":{"turn":1,"players":{"ann":[3,30],"bob":[3,30],"cyd":[3,30]},"final":false,"kind":"standings"}}
8b0bf7	15	{"seq":15,"change":8,"event":{"player":"ann","turn":1,"kind":"player_committed"}}
\.


--
-- Data for Name: games; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.games (game_id, created_at, record, progress, phase, map_key, lock_key, epoch, owner, clocked, handed_over, summary, closed) FROM stdin;
bf4315	1795873489.2152178	{"game_id":"bf4315","settings":{"ruleset":"risc","map":"seed","players":2,"turn_seconds":null,"bots":0,"bot_strategy":null,"options":{"initial_units":null,"neutral_units":3,"choose_groups":false,"max_players":5,"evolution":1,"food":100,"technology":100,"max_turns":100}},"seed":2657365772764091428,"created_at":1795873489.2152178}	{"seats":[{"name":"ann","token_hash":"7a08de60468e045f3b22d906e447fc5b000c4de3e94200a2b08205c5722ac5aa","group":null,"account":null}],"state":null,"seq":2,"number":2,"rematch":[],"rematch_game":null,"declined":[],"handed_over":[],"status":"lobby"}	lobby	dc3cf1d15e12b159a4229bc782656324cdeb7295aacc6137376840ca58b51c2c	-4626975817962728920	1	old-1	f	f	{"game_id":"bf4315","settings":{"ruleset":"risc","map":"seed","players":2,"turn_seconds":null,"bots":0,"bot_strategy":null,"options":{"initial_units":null,"neutral_units":3,"choose_groups":false,"max_players":5,"evolution":1,"food":100,"technology":100,"max_turns":100}},"ruleset_title":"RISC","simultaneous":true,"map_name":"Seed example","territories":9,"notes":[],"seats":[{"name":"ann","connected":false,"group":null,"eliminated":false,"committed":false,"awaited":false,"computer":false,"handed_over":false}],"free":1,"status":"lobby","phase":"lobby","turn":0,"step":0,"winner":null,"draw":false,"groups":null,"spectators":0,"rematch":[],"rematch_game":null,"rematch_declined":[]}	f
8b0bf7	1795873489.2558901	{"game_id":"8b0bf7","settings":{"ruleset":"risc","map":"seed","players":3,"turn_seconds":null,"bots":0,"bot_strategy":null,"options":{"initial_units":null,"neutral_units":3,"choose_groups":false,"max_players":5,"evolution":1,"food":100,"technology":100,"max_turns":100}},"seed":97190438913195627,"created_at":1795873489.2558901}	{"seats":[{"name":"ann","token_hash":"2c300daaded71be2d702a686d1a402f44b00c9070c9210aab69fb00a7a94753c","group":null,"account":null},{"name":"bob","token_hash":"c22da5778fbffec98c505cdc88ddb5b4541d0820cffa2a62f65da90a9827fabb","group":null,"account":null},{"name":"cyd","token_hash":"b980b3ea134efc8f0595faf72c735f4a945a505011aaefdf0672b5a8dcccb6ab","group":null,"account":null}],"state":{"ruleset":"risc","players":["ann","bob","cyd"],"step":1,"board":{"phase":"orders","turn":1,"owner":{"Narnia":"ann","Midkemia":"ann","Oz":"ann","Elantris":"cyd","Roshar":"cyd","Scadrial":"cyd","Gondor":"bob","Mordor":"bob","Hogwarts":"bob"},"units":{"Narnia":0,"Midkemia":30,"Oz":0,"Elantris":30,"Roshar":0,"Scadrial":0,"Gondor":30,"Mordor":0,"Hogwarts":0},"pools":{},"eliminated":[],"winner":null},"orders":{},"committed":[]},"seq":14,"number":7,"rematch":[],"rematch_game":null,"declined":[],"handed_over":[],"status":"playing"}	playing	dc3cf1d15e12b159a4229bc782656324cdeb7295aacc6137376840ca58b51c2c	-8262060256440074077	1	old-1	f	f	{"game_id":"8b0bf7","settings":{"ruleset":"risc","map":"seed","players":3,"turn_seconds":null,"bots":0,"bot_strategy":null,"options":{"initial_units":null,"neutral_units":3,"choose_groups":false,"max_players":5,"evolution":1,"food":100,"technology":100,"max_turns":100}},"ruleset_title":"RISC","simultaneous":true,"map_name":"Seed example","territories":9,"notes":[],"seats":[{"name":"ann","connected":true,"group":null,"eliminated":false,"committed":false,"awaited":true,"computer":false,"handed_over":false},{"name":"bob","connected":true,"group":null,"eliminated":false,"committed":false,"awaited":true,"computer":false,"handed_over":false},{"name":"cyd","connected":true,"group":null,"eliminated":false,"committed":false,"awaited":true,"computer":false,"handed_over":false}],"free":0,"status":"playing","phase":"orders","turn":1,"step":1,"winner":null,"draw":false,"groups":null,"spectators":0,"rematch":[],"rematch_game":null,"rematch_declined":[]}	f
\.


--
-- Data for Name: maps; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.maps (map_key, body) FROM stdin;
dc3cf1d15e12b159a4229bc782656324cdeb7295aacc6137376840ca58b51c2c	{"borders":{"Elantris":["Midkemia","Narnia","Roshar","Scadrial"],"Gondor":["Mordor","Oz"],"Hogwarts":["Mordor","Roshar","Scadrial"],"Midkemia":["Elantris","Narnia","Oz","Scadrial"],"Mordor":["Gondor","Hogwarts","Oz","Scadrial"],"Narnia":["Elantris","Midkemia"],"Oz":["Gondor","Midkemia","Mordor","Scadrial"],"Roshar":["Elantris","Hogwarts","Scadrial"],"Scadrial":["Elantris","Hogwarts","Midkemia","Mordor","Oz","Roshar"]},"continents":[],"description":"The map of the RISC requirements' worked example: nine territories named after fantasy worlds.","details":{"colours":[],"files":[],"properties":[],"source":""},"name":"Seed example","starting_groups":{"3":[["Narnia","Midkemia","Oz"],["Elantris","Roshar","Scadrial"],["Gondor","Mordor","Hogwarts"]]},"territories":[{"continent":null,"food":12,"name":"Narnia","size":2,"technology":3,"x":40.0,"y":40.0},{"continent":null,"food":8,"name":"Midkemia","size":3,"technology":9,"x":345.9,"y":50.7},{"continent":null,"food":6,"name":"Oz","size":1,"technology":12,"x":654.1,"y":50.7},{"continent":null,"food":6,"name":"Elantris","size":2,"technology":12,"x":186.2,"y":310.7},{"continent":null,"food":10,"name":"Roshar","size":3,"technology":4,"x":341.2,"y":580.3},{"continent":null,"food":10,"name":"Scadrial","size":1,"technology":8,"x":500.0,"y":321.2},{"continent":null,"food":12,"name":"Gondor","size":2,"technology":6,"x":960.0,"y":40.0},{"continent":null,"food":4,"name":"Mordor","size":3,"technology":12,"x":813.8,"y":310.7},{"continent":null,"food":10,"name":"Hogwarts","size":1,"technology":6,"x":658.8,"y":580.3}]}
\.


--
-- Data for Name: nodes; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.nodes (node_id, public_url, backend_pid, started_at, heartbeat) FROM stdin;
\.


--
-- Data for Name: pending_commits; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.pending_commits (id, game_id, player, step, seq) FROM stdin;
3	8b0bf7	ann	1	15
\.


--
-- Data for Name: pending_orders; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.pending_orders (id, game_id, player, step, "position", body) FROM stdin;
4	8b0bf7	ann	1	0	{"units":29,"source":"Midkemia","target":"Scadrial","kind":"attack"}
5	8b0bf7	bob	1	0	{"units":29,"source":"Gondor","target":"Oz","kind":"attack"}
\.


--
-- Data for Name: requests; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.requests (game_id, request_id, step, reply, player) FROM stdin;
\.


--
-- Data for Name: risc_schema; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.risc_schema (version, readable_from, release) FROM stdin;
5	1	0.1.0
\.


--
-- Data for Name: sessions; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sessions (token_hash, account_id, created_at, last_used_at, expires_at, client, ended_at) FROM stdin;
\.


--
-- Data for Name: signin_failures; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.signin_failures (name_key, failures, locked_until) FROM stdin;
\.


--
-- Name: pending_commits_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.pending_commits_id_seq', 3, true);


--
-- Name: pending_orders_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.pending_orders_id_seq', 5, true);


--
-- Name: account_games account_games_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_games
    ADD CONSTRAINT account_games_pkey PRIMARY KEY (account_id, game_id);


--
-- Name: accounts accounts_name_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_name_key_key UNIQUE (name_key);


--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (account_id);


--
-- Name: creators creators_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.creators
    ADD CONSTRAINT creators_pkey PRIMARY KEY (game_id);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (game_id, seq);


--
-- Name: games games_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.games
    ADD CONSTRAINT games_pkey PRIMARY KEY (game_id);


--
-- Name: maps maps_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.maps
    ADD CONSTRAINT maps_pkey PRIMARY KEY (map_key);


--
-- Name: nodes nodes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.nodes
    ADD CONSTRAINT nodes_pkey PRIMARY KEY (node_id);


--
-- Name: pending_commits pending_commits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pending_commits
    ADD CONSTRAINT pending_commits_pkey PRIMARY KEY (id);


--
-- Name: pending_orders pending_orders_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pending_orders
    ADD CONSTRAINT pending_orders_pkey PRIMARY KEY (id);


--
-- Name: requests requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.requests
    ADD CONSTRAINT requests_pkey PRIMARY KEY (game_id, player, request_id);


--
-- Name: sessions sessions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (token_hash);


--
-- Name: signin_failures signin_failures_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.signin_failures
    ADD CONSTRAINT signin_failures_pkey PRIMARY KEY (name_key);


--
-- Name: creators_by_address; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX creators_by_address ON public.creators USING btree (address);


--
-- Name: games_by_creation; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX games_by_creation ON public.games USING btree (created_at DESC, game_id);


--
-- Name: games_unfinished; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX games_unfinished ON public.games USING btree (created_at) WHERE (phase <> 'finished'::text);


--
-- Name: pending_commits_by_game; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pending_commits_by_game ON public.pending_commits USING btree (game_id, id);


--
-- Name: pending_orders_by_game; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX pending_orders_by_game ON public.pending_orders USING btree (game_id, id);


--
-- Name: sessions_by_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_by_account ON public.sessions USING btree (account_id);


--
-- Name: sessions_ended; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sessions_ended ON public.sessions USING btree (ended_at) WHERE (ended_at IS NOT NULL);


--
-- Name: account_games account_games_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account_games
    ADD CONSTRAINT account_games_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.games(game_id);


--
-- Name: events events_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.games(game_id);


--
-- Name: pending_commits pending_commits_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pending_commits
    ADD CONSTRAINT pending_commits_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.games(game_id);


--
-- Name: pending_orders pending_orders_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pending_orders
    ADD CONSTRAINT pending_orders_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.games(game_id);


--
-- Name: requests requests_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.requests
    ADD CONSTRAINT requests_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.games(game_id);


--
-- Name: sessions sessions_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sessions
    ADD CONSTRAINT sessions_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(account_id);


--
-- PostgreSQL database dump complete
--

\unrestrict dpIYOU2c5FTFDDbtt0axEa44wZqGyjoAW5jdMchys7SurQPhb7HZf2Em3Ov6rlP

