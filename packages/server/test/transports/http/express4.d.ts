// Express 4 is installed under the alias `express4`; its API, as these tests use it, is Express 5's.
declare module "express4" {
  import express from "express";
  export default express;
}
