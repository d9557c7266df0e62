-- Run once by the postgres image on an empty data volume (docker-compose.yml):
-- one database per service, as in production (ARCHITECTURE.md, "Rules of the house").
CREATE DATABASE verifier;
CREATE DATABASE ecosystem;
CREATE DATABASE status_list;
