(function(){"use strict";
var data=JSON.parse(document.getElementById("bleucli-data").textContent);
var table=document.getElementById("sentences");var body=table.tBodies[0];
var rows=Array.prototype.slice.call(body.rows);var texts=null;
var form=document.getElementById("filters");form.hidden=false;
var q=document.getElementById("f-text"),sign=document.getElementById("f-sign"),
 thr=document.getElementById("f-threshold"),which=document.getElementById("f-system"),
 shown=document.getElementById("f-count"),bucketNote=document.getElementById("f-bucket");
var bucket=null;
function bleu(n,k){return data.bleu[n-1][k];}
function delta(n,k){return bleu(n,k)-bleu(n,0);}
function apply(){
 if(texts===null){texts=rows.map(function(r){return r.textContent.toLowerCase();});}
 var needle=q.value.trim().toLowerCase(),s=sign.value,t=parseFloat(thr.value),k=+which.value,visible=0;
 rows.forEach(function(r,i){var n=+r.dataset.n,d=delta(n,k),ok=true;
  if(needle&&texts[i].indexOf(needle)<0)ok=false;
  if(s==="better"&&!(d>0))ok=false;if(s==="worse"&&!(d<0))ok=false;if(s==="same"&&d!==0)ok=false;
  if(!isNaN(t)&&Math.abs(d)<t)ok=false;if(bucket&&!bucket.has(n))ok=false;
  r.hidden=!ok;if(ok)visible++;});
 shown.textContent=visible+" of "+rows.length+" sentences shown";}
function clearFilters(){q.value="";sign.value="all";thr.value="";setBucket(null);}
function setBucket(i){var buttons=document.querySelectorAll("button.bucket");
 bucket=i===null?null:new Set(data.buckets[i].segments);
 buttons.forEach(function(b){b.setAttribute("aria-pressed",String(i!==null&&+b.dataset.bucket===i));});
 bucketNote.textContent=i===null?"":"bucket: "+data.buckets[i].label;apply();}
[q,sign,thr,which].forEach(function(el){el.addEventListener("input",apply);el.addEventListener("change",apply);});
document.getElementById("f-clear").addEventListener("click",function(){clearFilters();});
document.querySelectorAll("button.bucket").forEach(function(b){b.addEventListener("click",function(){
 var i=+b.dataset.bucket;setBucket(b.getAttribute("aria-pressed")==="true"?null:i);
 table.scrollIntoView();});});
var heads=Array.prototype.slice.call(table.tHead.rows[0].cells);
heads.forEach(function(th){var b=th.querySelector("button");if(!b)return;b.addEventListener("click",function(){
 var key=b.dataset.key,dir=th.getAttribute("aria-sort")==="descending"?"ascending":"descending";
 heads.forEach(function(h){if(h.querySelector("button"))h.setAttribute("aria-sort","none");});
 th.setAttribute("aria-sort",dir);var sgn=dir==="ascending"?1:-1;
 function value(r){var n=+r.dataset.n;if(key==="n")return n;var k=+key.slice(1);
  return key[0]==="b"?bleu(n,k):delta(n,k);}
 var keyed=rows.map(function(r){return [value(r),+r.dataset.n,r];});
 keyed.sort(function(a,b){return a[0]===b[0]?a[1]-b[1]:sgn*(a[0]-b[0]);});
 rows=keyed.map(function(x){return x[2];});texts=null;
 var frag=document.createDocumentFragment();rows.forEach(function(r){frag.appendChild(r);});body.appendChild(frag);});});
document.getElementById("f-copy").addEventListener("click",function(){
 var lines=[heads.map(function(h){return h.textContent.trim();}).join("\t")];
 rows.forEach(function(r){if(r.hidden)return;lines.push(Array.prototype.map.call(r.cells,function(c){
  var t=c.querySelector(".t");return (t?t.textContent:c.textContent).replace(/[\t\r\n]+/g," ").trim();}).join("\t"));});
 var out=document.getElementById("tsv");out.value=lines.join("\n")+"\n";out.hidden=false;out.select();
 if(navigator.clipboard){navigator.clipboard.writeText(out.value).catch(function(){});}});
function reveal(){var id=location.hash.slice(1);if(!/^s[0-9]+$/.test(id))return;var r=document.getElementById(id);
 if(!r)return;if(r.hidden){clearFilters();}r.scrollIntoView({block:"center"});}
window.addEventListener("hashchange",reveal);apply();reveal();
})();
